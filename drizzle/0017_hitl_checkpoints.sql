CREATE TABLE "hitl_checkpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"checkpoint_id" text NOT NULL,
	"run_id" uuid NOT NULL,
	"interrupt_id" text NOT NULL,
	"case_id" text NOT NULL,
	"session_id" text NOT NULL,
	"request_id" text NOT NULL,
	"user_id" text NOT NULL,
	"agent_id" text,
	"checkpoint_type" text NOT NULL,
	"checkpoint_number" integer,
	"node_name" text NOT NULL,
	"request_data" jsonb NOT NULL,
	"request_reasoning" text,
	"risk_level" text NOT NULL,
	"approval_status" text DEFAULT 'pending' NOT NULL,
	"approval_timestamp" timestamp with time zone,
	"approval_user_id" text,
	"approval_modifications" jsonb,
	"approval_notes" text,
	"timeout_seconds" integer DEFAULT 300 NOT NULL,
	"on_timeout" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"resume_count" integer DEFAULT 0 NOT NULL,
	"last_resumed_at" timestamp with time zone,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hitl_checkpoints_type_check" CHECK ("hitl_checkpoints"."checkpoint_type" in ('plan_approval', 'tool_execution', 'subagent_spawn', 'critical_decision', 'final_review', 'clarification')),
	CONSTRAINT "hitl_checkpoints_number_check" CHECK ("hitl_checkpoints"."checkpoint_number" is null or "hitl_checkpoints"."checkpoint_number" between 1 and 5),
	CONSTRAINT "hitl_checkpoints_risk_check" CHECK ("hitl_checkpoints"."risk_level" in ('low', 'medium', 'high', 'critical')),
	CONSTRAINT "hitl_checkpoints_status_check" CHECK ("hitl_checkpoints"."approval_status" in ('pending', 'approved', 'rejected', 'modified', 'timeout', 'skipped', 'responded')),
	CONSTRAINT "hitl_checkpoints_timeout_check" CHECK ("hitl_checkpoints"."on_timeout" in ('reject', 'approve', 'escalate'))
);
--> statement-breakpoint
ALTER TABLE "hitl_checkpoints" ADD CONSTRAINT "hitl_checkpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_checkpoints" ADD CONSTRAINT "hitl_checkpoints_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_checkpoints_checkpoint_uq" ON "hitl_checkpoints" USING btree ("tenant_id","checkpoint_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_checkpoints_interrupt_uq" ON "hitl_checkpoints" USING btree ("tenant_id","run_id","interrupt_id");--> statement-breakpoint
CREATE INDEX "hitl_checkpoints_run_idx" ON "hitl_checkpoints" USING btree ("tenant_id","run_id","created_at");--> statement-breakpoint
CREATE INDEX "hitl_checkpoints_session_idx" ON "hitl_checkpoints" USING btree ("tenant_id","session_id");--> statement-breakpoint
CREATE INDEX "hitl_checkpoints_expires_idx" ON "hitl_checkpoints" USING btree ("expires_at") WHERE "hitl_checkpoints"."approval_status" = 'pending';--> statement-breakpoint
-- A run's checkpoints are tenant data like the run.
SELECT vigil_secure_tenant_table('hitl_checkpoints');
--> statement-breakpoint
-- The timeout sweep finds expired checkpoints across tenants, then decides each one in its own
-- tenant transaction (where the HITL core's first-decision-wins makes several sweepers safe).
CREATE OR REPLACE FUNCTION vigil_expired_checkpoints(p_limit integer)
RETURNS TABLE (tenant_id uuid, checkpoint_id text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT c.tenant_id, c.checkpoint_id FROM hitl_checkpoints c
  WHERE c.approval_status = 'pending' AND c.expires_at < now() AND NOT (c.metadata ? 'timeout_escalated_at')
  ORDER BY c.expires_at
  LIMIT p_limit
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_expired_checkpoints(integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_expired_checkpoints(integer) TO vigil_app;
