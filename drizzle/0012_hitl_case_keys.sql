ALTER TABLE "hitl_case_refs" DROP CONSTRAINT "hitl_case_refs_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "hitl_case_refs" DROP CONSTRAINT "hitl_case_refs_case_id_hitl_cases_id_fk";
--> statement-breakpoint
ALTER TABLE "hitl_events" DROP CONSTRAINT "hitl_events_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "hitl_events" DROP CONSTRAINT "hitl_events_case_id_hitl_cases_id_fk";
--> statement-breakpoint
ALTER TABLE "hitl_state" DROP CONSTRAINT "hitl_state_case_id_hitl_cases_id_fk";
--> statement-breakpoint
ALTER TABLE "hitl_state" DROP CONSTRAINT "hitl_state_tenant_id_tenants_id_fk";
--> statement-breakpoint
-- The composite keys need their target unique first.
CREATE UNIQUE INDEX "hitl_cases_tenant_uq" ON "hitl_cases" USING btree ("id","tenant_id");--> statement-breakpoint
ALTER TABLE "hitl_case_refs" ADD CONSTRAINT "hitl_case_refs_case_id_tenant_id_hitl_cases_id_tenant_id_fk" FOREIGN KEY ("case_id","tenant_id") REFERENCES "public"."hitl_cases"("id","tenant_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_case_id_tenant_id_hitl_cases_id_tenant_id_fk" FOREIGN KEY ("case_id","tenant_id") REFERENCES "public"."hitl_cases"("id","tenant_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_state" ADD CONSTRAINT "hitl_state_case_id_tenant_id_hitl_cases_id_tenant_id_fk" FOREIGN KEY ("case_id","tenant_id") REFERENCES "public"."hitl_cases"("id","tenant_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hitl_state_priority_idx" ON "hitl_state" USING btree ("tenant_id","state","priority","created_at","case_id");