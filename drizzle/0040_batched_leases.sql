-- Leases in batches: an instance renews, releases and watches the leases of all the runs it
-- executes in one statement each, not one per run (a hundred runs with a 1 s heartbeat were a
-- hundred updates a second per instance). SECURITY DEFINER like vigil_claim_stale_runs: one
-- instance executes runs of every tenant, and row-level security would hide all but one.

-- Renews this instance's lease on each run still held under the fencing token it was claimed
-- with, and returns the runs it lost (cancelled, settled or claimed by another instance). Sets
-- only lease_expires_at, so the token stays. A row its own execution is writing at that moment
-- is waited for (milliseconds): skipping it instead lost leases of busy runs on a loaded host.
CREATE OR REPLACE FUNCTION vigil_renew_leases(p_owner text, p_lease_ms integer, p_runs uuid[], p_fences integer[])
RETURNS TABLE (run_id uuid)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH held AS (
    SELECT h.id, h.fence FROM unnest(p_runs, p_fences) AS h(id, fence)
  ), renewed AS (
    UPDATE runs r SET lease_expires_at = now() + make_interval(secs => p_lease_ms / 1000.0)
    FROM held
    WHERE r.id = held.id AND r.fence_token = held.fence AND r.lease_owner = p_owner AND r.status = 'running'
    RETURNING r.id
  )
  SELECT held.id FROM held WHERE held.id NOT IN (SELECT renewed.id FROM renewed)
$$;
--> statement-breakpoint
-- Hands runs this instance holds back at once (a graceful shutdown): their leases end now, and
-- the claim that follows counts one more recovery, which this undoes (a handover is not a
-- failure of the run's step). Naming lease_owner raises each run's fencing token.
CREATE OR REPLACE FUNCTION vigil_release_runs(p_owner text, p_runs uuid[])
RETURNS TABLE (run_id uuid)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  UPDATE runs r
  SET lease_owner = NULL,
      lease_expires_at = NULL,
      recovery_attempts = greatest(r.recovery_attempts - 1, 0),
      updated_at = now()
  WHERE r.id = ANY(p_runs) AND r.lease_owner = p_owner AND r.status = 'running'
  RETURNING r.id
$$;
--> statement-breakpoint
-- Milliseconds until the next live lease of a running run runs out, by the database's clock
-- (the one claims compare with); null when none is held. Leases already out are the sweep's
-- to claim now, not to wait for. A recovery sweep waits for that moment
-- instead of finding it up to a sweep later. Reads the partial index runs_unfinished_idx.
CREATE OR REPLACE FUNCTION vigil_next_lease_expiry_ms()
RETURNS double precision
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT extract(epoch FROM min(lease_expires_at) - clock_timestamp()) * 1000 FROM runs
  WHERE status = 'running' AND lease_expires_at > clock_timestamp()
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_renew_leases(text, integer, uuid[], integer[]) FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_release_runs(text, uuid[]) FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_next_lease_expiry_ms() FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_renew_leases(text, integer, uuid[], integer[]) TO vigil_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_release_runs(text, uuid[]) TO vigil_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_next_lease_expiry_ms() TO vigil_app;
