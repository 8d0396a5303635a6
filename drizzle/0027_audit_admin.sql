CREATE TABLE "alert_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"severity" text NOT NULL,
	"fired_at" timestamp (3) with time zone NOT NULL,
	"resolved_at" timestamp (3) with time zone,
	"value" numeric(20, 6) NOT NULL,
	"threshold" numeric(20, 6) NOT NULL,
	"window_minutes" integer NOT NULL,
	CONSTRAINT "alert_history_rule_check" CHECK ("alert_history"."rule" in ('checkpoint_timeout_rate', 'phi_access_spike', 'run_failure_rate', 'trace_storage_growth')),
	CONSTRAINT "alert_history_severity_check" CHECK ("alert_history"."severity" in ('info', 'warning', 'critical'))
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"tenant_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"threshold" numeric(20, 6) NOT NULL,
	"window_minutes" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "alert_settings_tenant_id_rule_pk" PRIMARY KEY("tenant_id","rule"),
	CONSTRAINT "alert_settings_rule_check" CHECK ("alert_settings"."rule" in ('checkpoint_timeout_rate', 'phi_access_spike', 'run_failure_rate', 'trace_storage_growth')),
	CONSTRAINT "alert_settings_window_check" CHECK ("alert_settings"."window_minutes" between 1 and 10080)
);
--> statement-breakpoint
CREATE TABLE "audit_erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"subject_user_id" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"rows_redacted" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"trace_seq" bigint
);
--> statement-breakpoint
CREATE TABLE "audit_export_parts" (
	"export_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "audit_export_parts_export_id_part_pk" PRIMARY KEY("export_id","part")
);
--> statement-breakpoint
CREATE TABLE "audit_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"format" text NOT NULL,
	"range_from" timestamp (3) with time zone,
	"range_to" timestamp (3) with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"completed_at" timestamp (3) with time zone,
	"row_count" bigint,
	"byte_size" bigint,
	"sha256" text,
	"chain_head_seq" bigint,
	"chain_head_hash" text,
	"generator_version" text,
	"error" text,
	CONSTRAINT "audit_exports_kind_check" CHECK ("audit_exports"."kind" in ('trace', 'decisions', 'cases')),
	CONSTRAINT "audit_exports_format_check" CHECK ("audit_exports"."format" in ('csv', 'json')),
	CONSTRAINT "audit_exports_status_check" CHECK ("audit_exports"."status" in ('pending', 'running', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "retention_config" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"checkpoint_retention_days" integer DEFAULT 30 NOT NULL,
	"execution_trace_retention_days" integer DEFAULT 2190 NOT NULL,
	"snapshot_retention_days" integer DEFAULT 7 NOT NULL,
	"evidence_chain_retention_days" integer DEFAULT 2190 NOT NULL,
	"phi_checkpoint_retention_days" integer DEFAULT 2190 NOT NULL,
	"phi_trace_retention_days" integer DEFAULT 2190 NOT NULL,
	"cleanup_enabled" boolean DEFAULT true NOT NULL,
	"cleanup_cron_schedule" text DEFAULT '0 2 * * *' NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "retention_config_days_check" CHECK (least("retention_config"."checkpoint_retention_days", "retention_config"."execution_trace_retention_days", "retention_config"."snapshot_retention_days",
        "retention_config"."evidence_chain_retention_days", "retention_config"."phi_checkpoint_retention_days", "retention_config"."phi_trace_retention_days") >= 1
        and greatest("retention_config"."checkpoint_retention_days", "retention_config"."execution_trace_retention_days", "retention_config"."snapshot_retention_days",
        "retention_config"."evidence_chain_retention_days", "retention_config"."phi_checkpoint_retention_days", "retention_config"."phi_trace_retention_days") <= 36500)
);
--> statement-breakpoint
CREATE TABLE "retention_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"actor" text,
	"as_of" timestamp (3) with time zone NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"removed" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"trace_seq" bigint,
	"closed_hash" text,
	"error" text,
	CONSTRAINT "retention_runs_trigger_check" CHECK ("retention_runs"."trigger" in ('cli', 'schedule', 'manual')),
	CONSTRAINT "retention_runs_status_check" CHECK ("retention_runs"."status" in ('running', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "session_metrics" (
	"tenant_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"event_count" integer DEFAULT 0 NOT NULL,
	"llm_calls" integer DEFAULT 0 NOT NULL,
	"total_tokens" bigint DEFAULT 0 NOT NULL,
	"total_cost" numeric(14, 6) DEFAULT 0 NOT NULL,
	"phi_access_count" integer DEFAULT 0 NOT NULL,
	"cache_hits" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"session_start" timestamp (3) with time zone NOT NULL,
	"session_end" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "session_metrics_tenant_id_session_id_pk" PRIMARY KEY("tenant_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD COLUMN "data_classification" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_history" ADD CONSTRAINT "alert_history_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_erasures" ADD CONSTRAINT "audit_erasures_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_export_parts" ADD CONSTRAINT "audit_export_parts_export_id_audit_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."audit_exports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_export_parts" ADD CONSTRAINT "audit_export_parts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_exports" ADD CONSTRAINT "audit_exports_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_config" ADD CONSTRAINT "retention_config_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_runs" ADD CONSTRAINT "retention_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_metrics" ADD CONSTRAINT "session_metrics_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_history_tenant_idx" ON "alert_history" USING btree ("tenant_id","fired_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_history_open_uq" ON "alert_history" USING btree ("tenant_id","rule") WHERE "alert_history"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "audit_erasures_tenant_idx" ON "audit_erasures" USING btree ("tenant_id","requested_at");--> statement-breakpoint
CREATE INDEX "audit_exports_tenant_idx" ON "audit_exports" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "retention_runs_tenant_idx" ON "retention_runs" USING btree ("tenant_id","started_at");--> statement-breakpoint
CREATE INDEX "session_metrics_recent_idx" ON "session_metrics" USING btree ("tenant_id","session_end");--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_classification_check" CHECK ("knowledge_documents"."data_classification" in ('public', 'confidential', 'restricted', 'phi'));--> statement-breakpoint
SELECT vigil_secure_tenant_table('retention_config');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('retention_runs');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('audit_erasures');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('audit_exports');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('audit_export_parts');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('alert_settings');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('alert_history');
--> statement-breakpoint
SELECT vigil_secure_tenant_table('session_metrics');
--> statement-breakpoint
-- Sessions chained before this migration: their summary, computed once from the trace. From
-- here on the sequencer adds each chained batch to it.
INSERT INTO session_metrics (tenant_id, session_id, event_count, llm_calls, total_tokens, total_cost,
  phi_access_count, cache_hits, error_count, session_start, session_end)
SELECT tenant_id, session_id, count(*), count(*) FILTER (WHERE event_type = 'llm_call'),
  coalesce(sum(tokens_used), 0), coalesce(sum(cost_usd), 0), count(*) FILTER (WHERE phi_accessed),
  count(*) FILTER (WHERE cache_hit), count(*) FILTER (WHERE NOT event_success),
  min(event_timestamp), max(event_timestamp)
FROM execution_trace WHERE session_id IS NOT NULL
GROUP BY tenant_id, session_id;
