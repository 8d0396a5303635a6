-- Runs, their event logs and the execution trace hold tenant data: RLS forced like everything else.
SELECT vigil_secure_tenant_table('runs');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('run_events');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('execution_trace');
--> statement-breakpoint
-- Logs are appended, never edited, by the application.
REVOKE UPDATE, DELETE ON run_events FROM vigil_app;
--> statement-breakpoint
REVOKE UPDATE, DELETE ON execution_trace FROM vigil_app;
--> statement-breakpoint
-- The trace is append-only for everyone, the owner included; only the retention job (an owner
-- connection that sets vigil.retention_job) may delete from it.
CREATE OR REPLACE FUNCTION vigil_trace_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('vigil.retention_job', true) = 'on' AND current_user <> 'vigil_app' AND TG_OP <> 'UPDATE' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'execution_trace is append-only (% refused)', TG_OP USING ERRCODE = '42501';
END
$$;
--> statement-breakpoint
CREATE TRIGGER execution_trace_append_only BEFORE UPDATE OR DELETE ON execution_trace
FOR EACH ROW EXECUTE FUNCTION vigil_trace_append_only();
--> statement-breakpoint
CREATE TRIGGER execution_trace_no_truncate BEFORE TRUNCATE ON execution_trace
FOR EACH STATEMENT EXECUTE FUNCTION vigil_trace_append_only();
--> statement-breakpoint
-- The recovery sweep claims runs whose executor died (lease expired), across tenants, without
-- two sweepers ever claiming the same run.
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
    WHERE s.status = 'running' AND (s.lease_expires_at IS NULL OR s.lease_expires_at < now())
    ORDER BY s.updated_at
    LIMIT p_limit
    FOR UPDATE SKIP LOCKED)
  RETURNING r.id, r.tenant_id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_claim_stale_runs(text, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_claim_stale_runs(text, integer, integer) TO vigil_app;
