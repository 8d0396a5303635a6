-- The trace takes the Mode 3 design's column names; rows chained before keep hash_version 1
-- (their hash covers the columns they had), new rows are chained as version 2.
ALTER TABLE "execution_trace" RENAME COLUMN "node" TO "node_name";--> statement-breakpoint
ALTER TABLE "execution_trace" RENAME COLUMN "payload" TO "event_data";--> statement-breakpoint
ALTER TABLE "execution_trace" RENAME COLUMN "duration_ms" TO "event_duration_ms";--> statement-breakpoint
ALTER TABLE "execution_trace" RENAME COLUMN "occurred_at" TO "event_timestamp";--> statement-breakpoint
CREATE TABLE "execution_trace_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "execution_trace_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"trace_id" text DEFAULT gen_random_uuid()::text NOT NULL,
	"run_id" uuid,
	"session_id" text,
	"request_id" text,
	"event_type" text NOT NULL,
	"node_name" text,
	"event_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"event_duration_ms" integer,
	"event_success" boolean DEFAULT true NOT NULL,
	"event_error" text,
	"agent_id" text,
	"agent_level" text,
	"user_id" text,
	"actor_id" text,
	"tokens_used" integer,
	"cost_usd" numeric(12, 6),
	"cache_hit" boolean,
	"data_classification" text,
	"phi_accessed" boolean DEFAULT false NOT NULL,
	"phi_fields" text[],
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"event_timestamp" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "execution_trace_outbox_event_type_check" CHECK ("execution_trace_outbox"."event_type" in ('run_start', 'run_complete', 'run_failed', 'run_cancelled', 'run_interrupted', 'node_start', 'node_complete', 'node_error', 'hitl_request', 'hitl_response', 'tool_invocation', 'tool_result', 'subagent_spawn', 'subagent_complete', 'llm_call', 'cache_hit', 'cache_miss', 'constitutional_check', 'escalation', 'retention')),
	CONSTRAINT "execution_trace_outbox_agent_level_check" CHECK ("execution_trace_outbox"."agent_level" in ('l1_master', 'l2_expert', 'l3_specialist', 'l4_worker', 'l5_tool')),
	CONSTRAINT "execution_trace_outbox_data_classification_check" CHECK ("execution_trace_outbox"."data_classification" in ('public', 'confidential', 'restricted', 'phi'))
);
--> statement-breakpoint
ALTER TABLE "execution_trace" ALTER COLUMN "event_data" SET DEFAULT '{}'::jsonb;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "trace_id" text DEFAULT gen_random_uuid()::text NOT NULL;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "event_success" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "event_error" text;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "agent_id" text;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "agent_level" text;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "tokens_used" integer;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "cost_usd" numeric(12, 6);--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "cache_hit" boolean;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "data_classification" text;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "phi_accessed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "phi_fields" text[];--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "execution_trace" ADD COLUMN "hash_version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "execution_trace_outbox" ADD CONSTRAINT "execution_trace_outbox_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "execution_trace_outbox_tenant_idx" ON "execution_trace_outbox" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "execution_trace_trace_id_idx" ON "execution_trace" USING btree ("trace_id");--> statement-breakpoint
CREATE INDEX "execution_trace_session_idx" ON "execution_trace" USING btree ("tenant_id","session_id","seq");--> statement-breakpoint
CREATE INDEX "execution_trace_agent_idx" ON "execution_trace" USING btree ("tenant_id","agent_id") WHERE "execution_trace"."agent_id" is not null;--> statement-breakpoint
CREATE INDEX "execution_trace_phi_idx" ON "execution_trace" USING btree ("tenant_id") WHERE "execution_trace"."phi_accessed";--> statement-breakpoint
ALTER TABLE "execution_trace" ADD CONSTRAINT "execution_trace_event_type_check" CHECK ("execution_trace"."event_type" in ('run_start', 'run_complete', 'run_failed', 'run_cancelled', 'run_interrupted', 'node_start', 'node_complete', 'node_error', 'hitl_request', 'hitl_response', 'tool_invocation', 'tool_result', 'subagent_spawn', 'subagent_complete', 'llm_call', 'cache_hit', 'cache_miss', 'constitutional_check', 'escalation', 'retention'));--> statement-breakpoint
ALTER TABLE "execution_trace" ADD CONSTRAINT "execution_trace_agent_level_check" CHECK ("execution_trace"."agent_level" in ('l1_master', 'l2_expert', 'l3_specialist', 'l4_worker', 'l5_tool'));--> statement-breakpoint
ALTER TABLE "execution_trace" ADD CONSTRAINT "execution_trace_data_classification_check" CHECK ("execution_trace"."data_classification" in ('public', 'confidential', 'restricted', 'phi'));--> statement-breakpoint
-- The outbox holds tenant data like the trace. The app role writes events with the change they
-- record and the sequencer (also the app role, tenant set) deletes the ones it chained; nobody
-- edits one.
SELECT vigil_secure_tenant_table('execution_trace_outbox');
--> statement-breakpoint
REVOKE UPDATE ON execution_trace_outbox FROM vigil_app;
--> statement-breakpoint
-- The sequencer's sweep finds the tenants with events to chain, across tenants, before it
-- takes each tenant's transaction.
CREATE OR REPLACE FUNCTION vigil_trace_outbox_tenants()
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT DISTINCT o.tenant_id FROM execution_trace_outbox o
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_trace_outbox_tenants() FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_trace_outbox_tenants() TO vigil_app;
