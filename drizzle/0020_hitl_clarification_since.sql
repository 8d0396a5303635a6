-- When the open question of a case in needs_clarification was asked: the clarification backlog
-- ages from it (updated_at moved with every escalation). Older rows take their last question's time.
ALTER TABLE "hitl_state" ADD COLUMN "needs_clarification_since" bigint;--> statement-breakpoint
UPDATE "hitl_state" s SET "needs_clarification_since" = (
  SELECT max(e."created_at") FROM "hitl_events" e WHERE e."case_id" = s."case_id" AND e."type" = 'needs_clarification'
) WHERE s."state" = 'needs_clarification';--> statement-breakpoint
CREATE INDEX "hitl_state_backlog_idx" ON "hitl_state" USING btree ("tenant_id","state","needs_clarification_since","case_id");
