CREATE TABLE "execution_trace" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"run_id" uuid,
	"event_type" text NOT NULL,
	"node" text,
	"actor_id" text,
	"duration_ms" integer,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_events" (
	"tenant_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_events_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workflow" text NOT NULL,
	"thread_id" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"input" jsonb,
	"error" text,
	"created_by" text NOT NULL,
	"pending_interrupts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"resume_value" jsonb,
	"resume_interrupt_id" text,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"recovery_attempts" integer DEFAULT 0 NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "runs_status_check" CHECK ("runs"."status" in ('running', 'interrupted', 'completed', 'failed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "execution_trace" ADD CONSTRAINT "execution_trace_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "execution_trace_chain_idx" ON "execution_trace" USING btree ("tenant_id","seq");--> statement-breakpoint
CREATE INDEX "execution_trace_run_idx" ON "execution_trace" USING btree ("run_id","seq");--> statement-breakpoint
CREATE INDEX "execution_trace_type_idx" ON "execution_trace" USING btree ("tenant_id","event_type","occurred_at");--> statement-breakpoint
CREATE INDEX "runs_tenant_created_idx" ON "runs" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "runs_thread_idx" ON "runs" USING btree ("tenant_id","thread_id");--> statement-breakpoint
CREATE INDEX "runs_unfinished_idx" ON "runs" USING btree ("lease_expires_at") WHERE "runs"."status" in ('running', 'interrupted');