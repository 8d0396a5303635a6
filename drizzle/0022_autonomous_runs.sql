CREATE TABLE "agent_tools" (
	"tenant_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"tool_name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_tools_tenant_id_agent_id_tool_name_pk" PRIMARY KEY("tenant_id","agent_id","tool_name")
);
--> statement-breakpoint
CREATE TABLE "constitutional_principles" (
	"tenant_id" uuid NOT NULL,
	"principle_id" text NOT NULL,
	"description" text NOT NULL,
	"severity" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"weight" real DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "constitutional_principles_tenant_id_principle_id_pk" PRIMARY KEY("tenant_id","principle_id"),
	CONSTRAINT "constitutional_principles_severity_check" CHECK ("constitutional_principles"."severity" in ('low', 'medium', 'high', 'critical'))
);
--> statement-breakpoint
CREATE TABLE "constitutional_validations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"validation_id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"request_id" text NOT NULL,
	"validated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"content_type" text NOT NULL,
	"content_snippet" text,
	"is_valid" boolean NOT NULL,
	"violations" text[] DEFAULT '{}'::text[] NOT NULL,
	"severity" text,
	"requires_revision" boolean NOT NULL,
	"suggested_revision" text,
	"revision_applied" boolean DEFAULT false NOT NULL,
	"revised_content" text,
	"principles_checked" text[] NOT NULL,
	"principles_passed" text[] DEFAULT '{}'::text[] NOT NULL,
	"principles_failed" text[] DEFAULT '{}'::text[] NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "constitutional_validations_content_check" CHECK ("constitutional_validations"."content_type" in ('plan', 'response', 'decision', 'tool_output')),
	CONSTRAINT "constitutional_validations_severity_check" CHECK ("constitutional_validations"."severity" is null or "constitutional_validations"."severity" in ('low', 'medium', 'high', 'critical'))
);
--> statement-breakpoint
CREATE TABLE "evidence_chains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"request_id" text NOT NULL,
	"claim_index" integer NOT NULL,
	"source_index" integer NOT NULL,
	"claim_text" text NOT NULL,
	"claim_type" text NOT NULL,
	"citation_number" integer NOT NULL,
	"primary_source_id" uuid NOT NULL,
	"primary_chunk_id" uuid NOT NULL,
	"primary_source_title" text NOT NULL,
	"primary_source_snippet" text NOT NULL,
	"primary_source_relevance_score" numeric(5, 4) NOT NULL,
	"secondary_source_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"secondary_source_count" integer DEFAULT 0 NOT NULL,
	"evidence_level" text NOT NULL,
	"evidence_confidence" numeric(5, 4) NOT NULL,
	"entity_mentions" text[] DEFAULT '{}'::text[] NOT NULL,
	"relationship_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"graphrag_profile_id" text,
	"search_method" text NOT NULL,
	"query_text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evidence_chains_claim_type_check" CHECK ("evidence_chains"."claim_type" in ('fact', 'recommendation', 'analysis', 'decision')),
	CONSTRAINT "evidence_chains_level_check" CHECK ("evidence_chains"."evidence_level" in ('1A', '1B', '2A', '2B', '3', '4', '5')),
	CONSTRAINT "evidence_chains_search_check" CHECK ("evidence_chains"."search_method" in ('hybrid', 'entity', 'relationship', 'semantic', 'lexical'))
);
--> statement-breakpoint
CREATE TABLE "run_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"body" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_messages_body_check" CHECK (length("run_messages"."body") between 1 and 4000)
);
--> statement-breakpoint
CREATE TABLE "sub_agent_hierarchy" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"request_id" text NOT NULL,
	"parent_id" uuid,
	"agent_id" text NOT NULL,
	"agent_name" text NOT NULL,
	"agent_level" text NOT NULL,
	"parent_agent_id" text,
	"task_description" text NOT NULL,
	"task_status" text DEFAULT 'pending' NOT NULL,
	"spawned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"duration_seconds" integer,
	"result_data" jsonb,
	"success" boolean,
	"error_message" text,
	"tools_used" text[] DEFAULT '{}'::text[] NOT NULL,
	"tokens_used" integer DEFAULT 0 NOT NULL,
	"cost_usd" numeric(10, 6) DEFAULT 0 NOT NULL,
	"hierarchy_depth" integer NOT NULL,
	"sibling_order" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sub_agent_hierarchy_level_check" CHECK ("sub_agent_hierarchy"."agent_level" in ('l2_expert', 'l3_specialist', 'l4_worker', 'l5_tool')),
	CONSTRAINT "sub_agent_hierarchy_status_check" CHECK ("sub_agent_hierarchy"."task_status" in ('pending', 'running', 'completed', 'failed', 'cancelled')),
	CONSTRAINT "sub_agent_hierarchy_depth_check" CHECK ("sub_agent_hierarchy"."hierarchy_depth" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "tool_executions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"step_id" text NOT NULL,
	"iteration" integer NOT NULL,
	"agent_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"tool_category" text NOT NULL,
	"risk_level" text NOT NULL,
	"parameters" jsonb NOT NULL,
	"status" text NOT NULL,
	"output" jsonb,
	"error" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"duration_ms" integer,
	"case_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_executions_status_check" CHECK ("tool_executions"."status" in ('succeeded', 'failed', 'rejected')),
	CONSTRAINT "tool_executions_category_check" CHECK ("tool_executions"."tool_category" in ('rag', 'web_search', 'code_execution', 'database', 'calculation', 'agent'))
);
--> statement-breakpoint
CREATE TABLE "tool_registry" (
	"tenant_id" uuid NOT NULL,
	"tool_name" text NOT NULL,
	"category" text NOT NULL,
	"risk_level" text NOT NULL,
	"data_access_scope" text NOT NULL,
	"external_api" boolean NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tool_registry_tenant_id_tool_name_pk" PRIMARY KEY("tenant_id","tool_name"),
	CONSTRAINT "tool_registry_category_check" CHECK ("tool_registry"."category" in ('rag', 'web_search', 'code_execution', 'database', 'calculation', 'agent')),
	CONSTRAINT "tool_registry_risk_check" CHECK ("tool_registry"."risk_level" in ('low', 'medium', 'high', 'critical')),
	CONSTRAINT "tool_registry_scope_check" CHECK ("tool_registry"."data_access_scope" in ('read_only', 'write', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "execution_trace" DROP CONSTRAINT "execution_trace_event_type_check";--> statement-breakpoint
ALTER TABLE "execution_trace_outbox" DROP CONSTRAINT "execution_trace_outbox_event_type_check";--> statement-breakpoint
ALTER TABLE "agent_tools" ADD CONSTRAINT "agent_tools_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_tools" ADD CONSTRAINT "agent_tools_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "constitutional_principles" ADD CONSTRAINT "constitutional_principles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "constitutional_validations" ADD CONSTRAINT "constitutional_validations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "constitutional_validations" ADD CONSTRAINT "constitutional_validations_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_chains" ADD CONSTRAINT "evidence_chains_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence_chains" ADD CONSTRAINT "evidence_chains_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_messages" ADD CONSTRAINT "run_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_messages" ADD CONSTRAINT "run_messages_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_agent_hierarchy" ADD CONSTRAINT "sub_agent_hierarchy_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_agent_hierarchy" ADD CONSTRAINT "sub_agent_hierarchy_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_executions" ADD CONSTRAINT "tool_executions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_executions" ADD CONSTRAINT "tool_executions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_registry" ADD CONSTRAINT "tool_registry_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "constitutional_validations_id_uq" ON "constitutional_validations" USING btree ("tenant_id","validation_id");--> statement-breakpoint
CREATE INDEX "constitutional_validations_run_idx" ON "constitutional_validations" USING btree ("tenant_id","run_id");--> statement-breakpoint
CREATE INDEX "constitutional_validations_severity_idx" ON "constitutional_validations" USING btree ("tenant_id","severity") WHERE "constitutional_validations"."severity" in ('high', 'critical');--> statement-breakpoint
CREATE UNIQUE INDEX "evidence_chains_claim_uq" ON "evidence_chains" USING btree ("tenant_id","run_id","claim_index","source_index");--> statement-breakpoint
CREATE INDEX "evidence_chains_primary_idx" ON "evidence_chains" USING btree ("tenant_id","primary_source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "run_messages_run_seq_uq" ON "run_messages" USING btree ("tenant_id","run_id","seq");--> statement-breakpoint
CREATE INDEX "sub_agent_hierarchy_run_idx" ON "sub_agent_hierarchy" USING btree ("tenant_id","run_id","hierarchy_depth","sibling_order");--> statement-breakpoint
CREATE INDEX "sub_agent_hierarchy_parent_idx" ON "sub_agent_hierarchy" USING btree ("parent_id") WHERE "sub_agent_hierarchy"."parent_id" is not null;--> statement-breakpoint
CREATE INDEX "sub_agent_hierarchy_session_idx" ON "sub_agent_hierarchy" USING btree ("tenant_id","session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tool_executions_step_uq" ON "tool_executions" USING btree ("tenant_id","run_id","step_id","iteration");--> statement-breakpoint
ALTER TABLE "execution_trace" ADD CONSTRAINT "execution_trace_event_type_check" CHECK ("execution_trace"."event_type" in ('run_start', 'run_complete', 'run_failed', 'run_cancelled', 'run_interrupted', 'node_start', 'node_complete', 'node_error', 'hitl_request', 'hitl_response', 'tool_invocation', 'tool_result', 'subagent_spawn', 'subagent_complete', 'llm_call', 'cache_hit', 'cache_miss', 'constitutional_check', 'escalation', 'steering_message', 'retention'));--> statement-breakpoint
ALTER TABLE "execution_trace_outbox" ADD CONSTRAINT "execution_trace_outbox_event_type_check" CHECK ("execution_trace_outbox"."event_type" in ('run_start', 'run_complete', 'run_failed', 'run_cancelled', 'run_interrupted', 'node_start', 'node_complete', 'node_error', 'hitl_request', 'hitl_response', 'tool_invocation', 'tool_result', 'subagent_spawn', 'subagent_complete', 'llm_call', 'cache_hit', 'cache_miss', 'constitutional_check', 'escalation', 'steering_message', 'retention'));--> statement-breakpoint
-- An autonomous run's records and the tool settings are tenant data like the run.
SELECT vigil_secure_tenant_table('sub_agent_hierarchy');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('constitutional_validations');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('evidence_chains');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('tool_executions');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('tool_registry');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('agent_tools');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('constitutional_principles');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('run_messages');
