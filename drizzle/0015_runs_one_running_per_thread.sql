-- One running run per thread: two executions on one thread would interleave their checkpoints.
-- Should a database already hold several, the newest keeps running and the older ones fail, with
-- the status event their streams end on.
WITH ranked AS (
  SELECT id, row_number() OVER (PARTITION BY tenant_id, thread_id ORDER BY created_at DESC, id DESC) AS n
  FROM runs WHERE status = 'running'
), superseded AS (
  UPDATE runs SET status = 'failed', error = 'Another run was running on the same thread.',
    finished_at = now(), updated_at = now(), last_seq = runs.last_seq + 1,
    lease_owner = NULL, lease_expires_at = NULL
  FROM ranked WHERE runs.id = ranked.id AND ranked.n > 1
  RETURNING runs.id, runs.tenant_id, runs.last_seq
)
INSERT INTO run_events (tenant_id, run_id, seq, type, payload)
SELECT tenant_id, id, last_seq, 'status',
  jsonb_build_object('status', 'failed', 'error', 'Another run was running on the same thread.')
FROM superseded;
--> statement-breakpoint
CREATE UNIQUE INDEX "runs_running_thread_uq" ON "runs" USING btree ("tenant_id","thread_id") WHERE "runs"."status" = 'running';
