CREATE TABLE "hitl_case_refs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"case_id" text NOT NULL,
	"kind" text NOT NULL,
	"ref_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "hitl_case_refs_kind_check" CHECK ("hitl_case_refs"."kind" in ('run', 'interrupt', 'thread', 'chat_session', 'external'))
);
--> statement-breakpoint
CREATE TABLE "hitl_cases" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"adapter" text NOT NULL,
	"schema_version" integer NOT NULL,
	"payload" jsonb NOT NULL,
	"summary" text NOT NULL,
	"request_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "hitl_cases_id_check" CHECK ("hitl_cases"."id" ~ '^HITL-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
);
--> statement-breakpoint
CREATE TABLE "hitl_events" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"case_id" text NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"request_id" text NOT NULL,
	"intent_hash" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_name" text,
	"actor_role" text NOT NULL,
	"question" text,
	"answer" text,
	"outcome" text,
	"modifications" jsonb,
	"reason" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "hitl_events_id_check" CHECK ("hitl_events"."id" ~ '^HEV-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
	CONSTRAINT "hitl_events_type_check" CHECK ("hitl_events"."type" in ('case_submitted', 'needs_clarification', 'clarification_provided', 'decision_recorded')),
	CONSTRAINT "hitl_events_from_state_check" CHECK ("hitl_events"."from_state" is null or "hitl_events"."from_state" in ('pending', 'needs_clarification', 'approved', 'rejected')),
	CONSTRAINT "hitl_events_to_state_check" CHECK ("hitl_events"."to_state" in ('pending', 'needs_clarification', 'approved', 'rejected')),
	CONSTRAINT "hitl_events_outcome_check" CHECK ("hitl_events"."outcome" is null or "hitl_events"."outcome" in ('approved', 'rejected')),
	CONSTRAINT "hitl_events_seq_check" CHECK ("hitl_events"."seq" >= 1),
	CONSTRAINT "hitl_events_question_check" CHECK ("hitl_events"."type" <> 'needs_clarification' or ("hitl_events"."question" is not null and length(btrim("hitl_events"."question")) > 0)),
	CONSTRAINT "hitl_events_answer_check" CHECK ("hitl_events"."type" <> 'clarification_provided' or ("hitl_events"."answer" is not null and length(btrim("hitl_events"."answer")) > 0)),
	CONSTRAINT "hitl_events_decision_check" CHECK (("hitl_events"."type" = 'decision_recorded') = ("hitl_events"."outcome" is not null and "hitl_events"."to_state" = "hitl_events"."outcome")),
	CONSTRAINT "hitl_events_modifications_check" CHECK ("hitl_events"."modifications" is null or ("hitl_events"."outcome" = 'approved' and jsonb_typeof("hitl_events"."modifications") = 'object')),
	CONSTRAINT "hitl_events_text_length_check" CHECK (coalesce(length("hitl_events"."question"), 0) <= 4000 and coalesce(length("hitl_events"."answer"), 0) <= 4000 and coalesce(length("hitl_events"."reason"), 0) <= 2000)
);
--> statement-breakpoint
CREATE TABLE "hitl_schema_registry" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"adapter" text NOT NULL,
	"version" integer NOT NULL,
	"json_schema" jsonb NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "hitl_schema_registry_adapter_check" CHECK ("hitl_schema_registry"."adapter" ~ '^[a-z][a-z0-9_]{0,63}$'),
	CONSTRAINT "hitl_schema_registry_version_check" CHECK ("hitl_schema_registry"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "hitl_state" (
	"case_id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"adapter" text NOT NULL,
	"state" text NOT NULL,
	"last_seq" integer NOT NULL,
	"last_event_id" text NOT NULL,
	"outcome" text,
	"decision_event_id" text,
	"decided_by" text,
	"decided_at" bigint,
	"open_question" text,
	"clarification_rounds" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "hitl_state_state_check" CHECK ("hitl_state"."state" in ('pending', 'needs_clarification', 'approved', 'rejected')),
	CONSTRAINT "hitl_state_outcome_check" CHECK ("hitl_state"."outcome" is null or "hitl_state"."outcome" = "hitl_state"."state")
);
--> statement-breakpoint
ALTER TABLE "hitl_case_refs" ADD CONSTRAINT "hitl_case_refs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_case_refs" ADD CONSTRAINT "hitl_case_refs_case_id_hitl_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."hitl_cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD CONSTRAINT "hitl_cases_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_case_id_hitl_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."hitl_cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_schema_registry" ADD CONSTRAINT "hitl_schema_registry_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD CONSTRAINT "hitl_state_case_id_hitl_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."hitl_cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD CONSTRAINT "hitl_state_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_case_refs_uq" ON "hitl_case_refs" USING btree ("case_id","kind","ref_id");--> statement-breakpoint
CREATE INDEX "hitl_case_refs_lookup_idx" ON "hitl_case_refs" USING btree ("tenant_id","kind","ref_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_cases_request_uq" ON "hitl_cases" USING btree ("tenant_id","request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_events_request_uq" ON "hitl_events" USING btree ("case_id","request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_events_seq_uq" ON "hitl_events" USING btree ("case_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_events_one_decision_uq" ON "hitl_events" USING btree ("case_id") WHERE "hitl_events"."type" = 'decision_recorded';--> statement-breakpoint
CREATE INDEX "hitl_events_tenant_created_idx" ON "hitl_events" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_schema_registry_version_uq" ON "hitl_schema_registry" USING btree ("tenant_id","adapter","version");--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_schema_registry_active_uq" ON "hitl_schema_registry" USING btree ("tenant_id","adapter") WHERE "hitl_schema_registry"."active";--> statement-breakpoint
CREATE INDEX "hitl_state_queue_idx" ON "hitl_state" USING btree ("tenant_id","state","created_at","case_id");