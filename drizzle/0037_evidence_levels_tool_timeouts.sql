ALTER TABLE "evidence_chains" DROP CONSTRAINT "evidence_chains_level_check";--> statement-breakpoint
ALTER TABLE "evidence_chains" ALTER COLUMN "evidence_level" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tool_registry" ADD COLUMN "timeout_seconds" integer;--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD COLUMN "evidence_level" text;--> statement-breakpoint
ALTER TABLE "evidence_chains" ADD CONSTRAINT "evidence_chains_level_check" CHECK ("evidence_chains"."evidence_level" is null or "evidence_chains"."evidence_level" in ('1A', '1B', '2A', '2B', '3', '4', '5'));--> statement-breakpoint
ALTER TABLE "tool_registry" ADD CONSTRAINT "tool_registry_timeout_check" CHECK ("tool_registry"."timeout_seconds" is null or "tool_registry"."timeout_seconds" between 1 and 3600);--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_evidence_level_check" CHECK ("knowledge_documents"."evidence_level" is null or "knowledge_documents"."evidence_level" in ('1A', '1B', '2A', '2B', '3', '4', '5'));--> statement-breakpoint
-- An escalated checkpoint gets a second deadline (metadata.escalation_expires_at, set when it is
-- escalated); past it the sweep ends it by policy instead of leaving it to wait forever.
-- Checkpoints escalated before this migration carry no second deadline and keep waiting.
CREATE OR REPLACE FUNCTION vigil_expired_checkpoints(p_limit integer)
RETURNS TABLE (tenant_id uuid, checkpoint_id text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT c.tenant_id, c.checkpoint_id FROM hitl_checkpoints c
  WHERE c.approval_status = 'pending'
    AND CASE WHEN c.metadata ? 'timeout_escalated_at'
      THEN (c.metadata->>'escalation_expires_at')::timestamptz < now()
      ELSE c.expires_at < now() END
  ORDER BY c.expires_at
  LIMIT p_limit
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION vigil_expired_checkpoints(integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION vigil_expired_checkpoints(integer) TO vigil_app;
