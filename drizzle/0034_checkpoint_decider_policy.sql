-- Separation of duties: per tenant, for each safety level and checkpoint type, whether a run's
-- owner may decide its checkpoint or a reviewer other than the owner must. The run's safety level
-- is kept on each checkpoint, so the rule is read where the decision is made.
CREATE TABLE "checkpoint_decider_policies" (
	"tenant_id" uuid NOT NULL,
	"safety_level" text NOT NULL,
	"checkpoint_type" text NOT NULL,
	"decider" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkpoint_decider_policies_tenant_id_safety_level_checkpoint_type_pk" PRIMARY KEY("tenant_id","safety_level","checkpoint_type"),
	CONSTRAINT "checkpoint_decider_policies_level_check" CHECK ("checkpoint_decider_policies"."safety_level" in ('strict', 'balanced', 'permissive')),
	CONSTRAINT "checkpoint_decider_policies_type_check" CHECK ("checkpoint_decider_policies"."checkpoint_type" in ('plan_approval', 'tool_execution', 'subagent_spawn', 'critical_decision', 'final_review')),
	CONSTRAINT "checkpoint_decider_policies_decider_check" CHECK ("checkpoint_decider_policies"."decider" in ('owner', 'four_eyes'))
);
--> statement-breakpoint
ALTER TABLE "hitl_checkpoints" ADD COLUMN "safety_level" text;--> statement-breakpoint
ALTER TABLE "checkpoint_decider_policies" ADD CONSTRAINT "checkpoint_decider_policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_checkpoints" ADD CONSTRAINT "hitl_checkpoints_safety_level_check" CHECK ("hitl_checkpoints"."safety_level" is null or "hitl_checkpoints"."safety_level" in ('strict', 'balanced', 'permissive'));--> statement-breakpoint
SELECT vigil_secure_tenant_table('checkpoint_decider_policies');
