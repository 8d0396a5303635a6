-- A process paused (SIGSTOP, a paused VM) in the middle of one statement's messages leaves its
-- session waiting on the client with state 'active' (wait event ClientRead): postgres-js sends a
-- statement it has not prepared on that connection as Parse/Describe, waits for the answer, and
-- only then sends Bind/Execute/Sync. Neither idle_in_transaction_session_timeout nor
-- statement_timeout cuts such a session (checked on PostgreSQL 15), so every lock it holds is held
-- for as long as the process stays paused. Two places end such sessions now:
-- - the run claim of 0043, which ended only sessions 'idle in transaction' on a lapsed run's row;
-- - the trace sequencer, whose per-tenant chain lock (an advisory lock) a paused sequencer held
--   for every instance, so the tenant's trace stopped being chained until the process woke.

-- Ends the sessions that hold the tenant's trace chain lock and have waited on their client, in a
-- transaction, for longer than p_idle_ms. Returns how many it ended. SECURITY DEFINER: ending
-- another session needs the privileges of its role (as for the claim); without them nothing is
-- ended and the caller waits as before.
CREATE OR REPLACE FUNCTION vigil_end_paused_trace_holder(p_tenant uuid, p_idle_ms integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  lock_key bigint := hashtextextended('vigil.trace:' || p_tenant::text, 0);
  paused integer;
  ended integer := 0;
BEGIN
  IF p_idle_ms IS NULL OR p_idle_ms < 0 THEN
    RAISE EXCEPTION 'p_idle_ms must be a non-negative number of milliseconds' USING ERRCODE = '22023';
  END IF;
  FOR paused IN
    SELECT a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
      AND l.classid = ((lock_key >> 32) & 4294967295)::oid AND l.objid = (lock_key & 4294967295)::oid
      AND l.database = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
      AND a.pid <> pg_backend_pid()
      AND (a.state IN ('idle in transaction', 'idle in transaction (aborted)')
           OR (a.state = 'active' AND a.wait_event = 'ClientRead'))
      AND a.state_change < clock_timestamp() - make_interval(secs => p_idle_ms / 1000.0)
  LOOP
    BEGIN
      IF pg_terminate_backend(paused, 1000) THEN
        ended := ended + 1;
      END IF;
    EXCEPTION WHEN insufficient_privilege THEN
      NULL;
    END;
  END LOOP;
  RETURN ended;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_end_paused_trace_holder(uuid, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_end_paused_trace_holder(uuid, integer) TO vigil_app;
--> statement-breakpoint
-- The claim of 0043, with two changes: a session paused between a statement's messages (state
-- 'active', waiting on ClientRead) counts as paused, as one idle in its transaction does; and
-- only a session of this database is looked at (pg_stat_activity lists the whole server's, and
-- a row's xmax may be a multixact id, which can equal another database's transaction id).
CREATE OR REPLACE FUNCTION vigil_claim_stale_runs(p_owner text, p_lease_ms integer, p_limit integer)
RETURNS TABLE (run_id uuid, tenant_id uuid)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  paused integer;
BEGIN
  FOR paused IN
    SELECT (SELECT a.pid FROM pg_stat_activity a
            WHERE a.backend_xid = s.xmax AND a.pid <> pg_backend_pid()
              AND a.datid = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
              AND (a.state IN ('idle in transaction', 'idle in transaction (aborted)')
                   OR (a.state = 'active' AND a.wait_event = 'ClientRead'))
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
