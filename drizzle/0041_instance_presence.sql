-- Presence: a process killed with its runs (kill -9, an OOM kill) closes its connections, and the
-- server ends their sessions at once. An instance holds a session advisory lock on a connection of
-- its own and registers its name here; a registered instance whose lock is gone is dead, and the
-- recovery sweep claims its runs at once instead of waiting for their leases to run out. An
-- instance that never registered (an embedded database, a pooler without session locks, a lock
-- that could not be taken) is judged by its leases alone, as before. Only the functions below
-- touch the table: no grant to the app role.
CREATE TABLE IF NOT EXISTS "run_instances" (
  "owner" text PRIMARY KEY,
  "presence_key" integer NOT NULL,
  "registered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
REVOKE ALL ON "run_instances" FROM PUBLIC;
--> statement-breakpoint
-- Whether the presence lock of this key is held by a session (classid 0x56494749, "VIGI").
CREATE OR REPLACE FUNCTION vigil_instance_present(p_key integer)
RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 1447642953::oid
      AND l.objid = p_key::oid AND l.objsubid = 2
      AND l.database = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database()))
$$;
--> statement-breakpoint
-- Called on the instance's presence connection, at start and at every heartbeat: takes the lock
-- if this session does not hold it yet (a connection that was lost and made again), then
-- registers the instance. False when another session holds the key (a hash collision with a live
-- instance): this instance stays unregistered, judged by its leases. Registrations of instances
-- gone for an hour that hold no lease are forgotten on the way.
CREATE OR REPLACE FUNCTION vigil_register_instance(p_owner text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  k integer := hashtext(p_owner);
  held boolean;
BEGIN
  held := EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.pid = pg_backend_pid() AND l.classid = 1447642953::oid
      AND l.objid = k::oid AND l.objsubid = 2);
  -- Every heartbeat calls this: a session that holds the lock and is registered writes nothing.
  IF held AND EXISTS (SELECT 1 FROM run_instances WHERE owner = p_owner) THEN
    RETURN true;
  END IF;
  IF NOT held AND NOT pg_try_advisory_lock(1447642953, k) THEN
    RETURN false;
  END IF;
  INSERT INTO run_instances (owner, presence_key) VALUES (p_owner, k)
  ON CONFLICT (owner) DO UPDATE SET registered_at = now();
  DELETE FROM run_instances i
  WHERE i.registered_at < now() - interval '1 hour'
    AND NOT vigil_instance_present(i.presence_key)
    AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.lease_owner = i.owner AND r.status = 'running');
  RETURN true;
END
$$;
--> statement-breakpoint
-- The claim of 0005, plus the runs whose lease is still live but whose registered owner is gone
-- (never the claimer's own: its presence connection lost for a moment does not make it dead to
-- itself, and its executions go on).
CREATE OR REPLACE FUNCTION vigil_claim_stale_runs(p_owner text, p_lease_ms integer, p_limit integer)
RETURNS TABLE (run_id uuid, tenant_id uuid)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
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
    FOR UPDATE SKIP LOCKED)
  RETURNING r.id, r.tenant_id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_instance_present(integer) FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_register_instance(text) FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_claim_stale_runs(text, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_register_instance(text) TO vigil_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_claim_stale_runs(text, integer, integer) TO vigil_app;
