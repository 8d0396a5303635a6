CREATE INDEX "hitl_events_decisions_idx" ON "hitl_events" USING btree ("tenant_id","created_at_ms","event_id") WHERE "hitl_events"."event_type" in ('decision_recorded', 'decision_superseded');--> statement-breakpoint
-- The charts and alerts sum tokens and cost, count errors per node and group by agent and run
-- over a window of one event type: with these columns in the index they never visit the table.
DROP INDEX IF EXISTS "execution_trace_type_idx";
--> statement-breakpoint
CREATE INDEX "execution_trace_type_idx" ON "execution_trace" USING btree ("tenant_id","event_type","event_timestamp")
  INCLUDE ("tokens_used", "cost_usd", "agent_id", "run_id", "node_name", "event_success");
