-- A graceful shutdown's first release: as vigil_release_runs (0040), but only the runs whose row
-- no transaction holds locked at this moment. A run whose event write or checkpoint save is still
-- in flight is skipped instead of waited for: the one statement releasing every run otherwise
-- waited for the slowest of the stopping process's own writes (Lock:transactionid) before it
-- committed and woke the other instances. The skipped runs are released one by one, each once
-- its own writer has settled. Naming lease_owner raises each released run's fencing token.
CREATE OR REPLACE FUNCTION vigil_release_unlocked_runs(p_owner text, p_runs uuid[])
RETURNS TABLE (run_id uuid)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  UPDATE runs r
  SET lease_owner = NULL,
      lease_expires_at = NULL,
      recovery_attempts = greatest(r.recovery_attempts - 1, 0),
      updated_at = now()
  WHERE r.id IN (
    SELECT s.id FROM runs s
    WHERE s.id = ANY(p_runs) AND s.lease_owner = p_owner AND s.status = 'running'
    FOR UPDATE SKIP LOCKED)
  RETURNING r.id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_release_unlocked_runs(text, uuid[]) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_release_unlocked_runs(text, uuid[]) TO vigil_app;
