ALTER TABLE "retention_runs" ADD COLUMN "slot" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "fence_token" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "retention_runs_slot_uq" ON "retention_runs" USING btree ("tenant_id","slot");--> statement-breakpoint
-- Fencing: every UPDATE that names lease_owner (a claim — start, resume, recovery — or a
-- release — settle, cancel) raises the run's token, whatever code path issues it. Heartbeats
-- set only lease_expires_at and keep it. An execution writes under the token it claimed with.
CREATE OR REPLACE FUNCTION vigil_runs_fence() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.fence_token := OLD.fence_token + 1;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER runs_fence_on_claim BEFORE UPDATE OF lease_owner ON runs
FOR EACH ROW EXECUTE FUNCTION vigil_runs_fence();
--> statement-breakpoint
-- Run first in a writer's transaction (a checkpoint save): refuses the whole transaction unless
-- the run is still running under p_token, and holds a share lock on the run until the commit,
-- so a concurrent claim waits for the write instead of racing it. SECURITY INVOKER: row-level
-- security limits it to the transaction's tenant.
CREATE OR REPLACE FUNCTION vigil_fence_check(p_run uuid, p_token integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM runs WHERE id = p_run AND fence_token = p_token AND status = 'running' FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'run % is no longer held under fencing token %', p_run, p_token USING ERRCODE = 'VF409';
  END IF;
END
$$;
