-- A frozen instance must not block a takeover (#33). An instance paused (SIGSTOP, a paused VM)
-- inside a fenced write held the run row FOR SHARE until the server cut its session (the
-- idle-in-transaction timeout, 15 s), and no claim could raise the run's fencing token before.
-- Now the check at the start of a fenced transaction takes FOR KEY SHARE, which conflicts only
-- with FOR UPDATE and key changes, not with the claim's UPDATE of lease_owner, fence_token and
-- lease_expires_at (none of them is in a unique index); the fence is checked again inside the
-- COMMIT itself (a deferred constraint trigger, no client round trip in between), under FOR SHARE
-- for that instant only: a writer whose run was claimed meanwhile is refused as a whole (VF409).

-- One row per fence check of an open transaction, deleted again at its commit: the event the
-- deferred trigger fires on. Unlogged (rows never outlive their transaction) and not under
-- row-level security (a transaction sees only its own uncommitted rows).
CREATE UNLOGGED TABLE IF NOT EXISTS "run_fence_checks" (
  "run_id" uuid NOT NULL,
  "fence_token" integer NOT NULL
);
--> statement-breakpoint
REVOKE ALL ON "run_fence_checks" FROM PUBLIC;
--> statement-breakpoint
GRANT INSERT ON "run_fence_checks" TO vigil_app;
--> statement-breakpoint
-- Run first in a writer's transaction (a checkpoint save): refuses the whole transaction unless
-- the run is still running under p_token, and has the check made again at the commit. The
-- FOR KEY SHARE lock keeps the run row from being deleted, and nothing else: a claim, a
-- heartbeat or a cancel goes ahead without waiting for this transaction. SECURITY INVOKER:
-- row-level security limits it to the transaction's tenant.
CREATE OR REPLACE FUNCTION vigil_fence_check(p_run uuid, p_token integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM runs WHERE id = p_run AND fence_token = p_token AND status = 'running' FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'run % is no longer held under fencing token %', p_run, p_token USING ERRCODE = 'VF409';
  END IF;
  INSERT INTO run_fence_checks (run_id, fence_token) VALUES (p_run, p_token);
END
$$;
--> statement-breakpoint
-- The same check, made by the server inside the COMMIT. FOR SHARE makes it and the commit one
-- step for a claim: a claim that updated the row first is waited for and then seen (the token
-- changed: refused); one that comes after waits the few moments the commit takes (the lock is
-- taken after the client's last statement, so no paused client can hold it).
CREATE OR REPLACE FUNCTION vigil_fence_recheck() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  DELETE FROM run_fence_checks WHERE run_id = NEW.run_id AND fence_token = NEW.fence_token;
  PERFORM 1 FROM runs WHERE id = NEW.run_id AND fence_token = NEW.fence_token AND status = 'running' FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'run % is no longer held under fencing token %', NEW.run_id, NEW.fence_token USING ERRCODE = 'VF409';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS run_fence_checks_at_commit ON run_fence_checks;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER run_fence_checks_at_commit AFTER INSERT ON run_fence_checks
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vigil_fence_recheck();
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_fence_recheck() FROM PUBLIC;
--> statement-breakpoint
-- The claim of 0041, with two changes:
-- - It locks with FOR NO KEY UPDATE SKIP LOCKED: a run whose checkpoint save is open (FOR KEY
--   SHARE) is claimed, not skipped; the save is refused at its commit.
-- - An event write holds the run row itself (it allocates the run's sequence numbers there) and
--   its other rows (task writes, checkpoint blobs) hold unique keys the new execution writes
--   again. A session that has sat idle inside such a transaction for a quarter of a lease while
--   the run's lease has lapsed (a paused instance) is ended first, and with it every lock it
--   holds; a run it held is claimed by this call or, if the session took longer to go, the next.
--   The session is found by its transaction id, which the run row's xmax names while it holds the
--   row. Ending it needs the privileges of its role (the same login as the one that migrated, or
--   pg_signal_backend); without them it is left to the idle-in-transaction timeout, as before.
CREATE OR REPLACE FUNCTION vigil_claim_stale_runs(p_owner text, p_lease_ms integer, p_limit integer)
RETURNS TABLE (run_id uuid, tenant_id uuid)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  paused integer;
BEGIN
  FOR paused IN
    SELECT (SELECT a.pid FROM pg_stat_activity a
            WHERE a.backend_xid = s.xmax AND a.pid <> pg_backend_pid()
              AND a.state IN ('idle in transaction', 'idle in transaction (aborted)')
              AND a.state_change < clock_timestamp() - make_interval(secs => p_lease_ms / 4000.0)
            LIMIT 1)
    FROM runs s
    WHERE s.status = 'running' AND s.lease_owner IS DISTINCT FROM p_owner
      AND (s.lease_expires_at IS NULL OR s.lease_expires_at < now())
  LOOP
    CONTINUE WHEN paused IS NULL;
    BEGIN
      PERFORM pg_terminate_backend(paused, 1000);
    EXCEPTION WHEN insufficient_privilege THEN
      NULL;
    END;
  END LOOP;
  RETURN QUERY
  UPDATE runs r
  SET lease_owner = p_owner,
      lease_expires_at = now() + make_interval(secs => p_lease_ms / 1000.0),
      recovery_attempts = r.recovery_attempts + 1,
      updated_at = now()
  WHERE r.id IN (
    SELECT s.id FROM runs s
    WHERE s.status = 'running' AND (
      s.lease_expires_at IS NULL OR s.lease_expires_at < now()
      OR (s.lease_owner <> p_owner AND s.lease_owner IN (
        -- pg_locks read once per claim (a hashed subplan), not once per registered instance.
        SELECT i.owner FROM run_instances i
        WHERE i.presence_key::oid NOT IN (
          SELECT l.objid FROM pg_locks l
          WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 1447642953::oid AND l.objsubid = 2
            AND l.database = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())))))
    ORDER BY s.updated_at
    LIMIT p_limit
    FOR NO KEY UPDATE SKIP LOCKED)
  RETURNING r.id, r.tenant_id;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_claim_stale_runs(text, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_claim_stale_runs(text, integer, integer) TO vigil_app;
