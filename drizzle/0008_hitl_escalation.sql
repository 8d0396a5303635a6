CREATE TABLE "hitl_sla_policies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"adapter" text NOT NULL,
	"due_hours" integer NOT NULL,
	"calendar" text DEFAULT 'calendar' NOT NULL,
	"escalate_to" text NOT NULL,
	"renotify_hours" integer,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "hitl_sla_policies_due_check" CHECK ("hitl_sla_policies"."due_hours" between 1 and 8760),
	CONSTRAINT "hitl_sla_policies_renotify_check" CHECK ("hitl_sla_policies"."renotify_hours" is null or "hitl_sla_policies"."renotify_hours" between 1 and 8760),
	CONSTRAINT "hitl_sla_policies_calendar_check" CHECK ("hitl_sla_policies"."calendar" in ('calendar', 'business'))
);
--> statement-breakpoint
ALTER TABLE "hitl_events" DROP CONSTRAINT "hitl_events_type_check";--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "priority" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "due_at" bigint;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD COLUMN "priority" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD COLUMN "due_at" bigint;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD COLUMN "escalation_level" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD COLUMN "escalated_to" text;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD COLUMN "escalated_at" bigint;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD COLUMN "next_escalation_at" bigint;--> statement-breakpoint
ALTER TABLE "hitl_sla_policies" ADD CONSTRAINT "hitl_sla_policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_sla_policies_adapter_uq" ON "hitl_sla_policies" USING btree ("tenant_id","adapter");--> statement-breakpoint
CREATE INDEX "hitl_state_decided_idx" ON "hitl_state" USING btree ("tenant_id","decided_at","case_id");--> statement-breakpoint
CREATE INDEX "hitl_state_escalation_idx" ON "hitl_state" USING btree ("next_escalation_at") WHERE "hitl_state"."next_escalation_at" is not null;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD CONSTRAINT "hitl_cases_priority_check" CHECK ("hitl_cases"."priority" in ('low', 'normal', 'high', 'urgent'));--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_escalation_check" CHECK (("hitl_events"."type" = 'escalated') = ("hitl_events"."details" is not null) and ("hitl_events"."type" <> 'escalated' or "hitl_events"."from_state" = "hitl_events"."to_state"));--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_type_check" CHECK ("hitl_events"."type" in ('case_submitted', 'needs_clarification', 'clarification_provided', 'decision_recorded', 'escalated'));