-- The HITL tables take the design's names and keep every field it has: adapter_id, case_type,
-- title, confidence, the payload's hash and the submitter on cases; notes, actor_kind/team,
-- event_json and supersedes_event_id on events; ref_type/ref_key/ref_value on refs; _ms
-- timestamps everywhere. Priorities are low|normal|high|critical (urgent becomes critical) and
-- the submission event is `submitted`. Existing rows are carried over (see docs/decisions.md
-- for what legacy rows get where the old schema kept nothing).

-- ---- hitl_schema_registry -------------------------------------------------------------------
ALTER TABLE "hitl_schema_registry" RENAME COLUMN "adapter" TO "adapter_id";--> statement-breakpoint
ALTER TABLE "hitl_schema_registry" RENAME COLUMN "version" TO "schema_version";--> statement-breakpoint
ALTER TABLE "hitl_schema_registry" RENAME COLUMN "json_schema" TO "schema_json";--> statement-breakpoint
ALTER TABLE "hitl_schema_registry" RENAME COLUMN "active" TO "is_active";--> statement-breakpoint
ALTER TABLE "hitl_schema_registry" RENAME COLUMN "created_at" TO "created_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_schema_registry" RENAME COLUMN "activated_at" TO "activated_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_schema_registry" ADD COLUMN "updated_at_ms" bigint;--> statement-breakpoint
UPDATE "hitl_schema_registry" SET "updated_at_ms" = greatest("created_at_ms", coalesce("activated_at_ms", 0));--> statement-breakpoint
ALTER TABLE "hitl_schema_registry" ALTER COLUMN "updated_at_ms" SET NOT NULL;--> statement-breakpoint

-- ---- hitl_sla_policies ----------------------------------------------------------------------
ALTER TABLE "hitl_sla_policies" RENAME COLUMN "adapter" TO "adapter_id";--> statement-breakpoint
ALTER TABLE "hitl_sla_policies" RENAME COLUMN "updated_at" TO "updated_at_ms";--> statement-breakpoint

-- ---- hitl_events ----------------------------------------------------------------------------
ALTER TABLE "hitl_events" DROP CONSTRAINT "hitl_events_type_check";--> statement-breakpoint
ALTER TABLE "hitl_events" DROP CONSTRAINT "hitl_events_decision_check";--> statement-breakpoint
ALTER TABLE "hitl_events" DROP CONSTRAINT "hitl_events_text_length_check";--> statement-breakpoint
UPDATE "hitl_events" SET "type" = 'submitted' WHERE "type" = 'case_submitted';--> statement-breakpoint
ALTER TABLE "hitl_events" RENAME COLUMN "id" TO "event_id";--> statement-breakpoint
ALTER TABLE "hitl_events" RENAME COLUMN "type" TO "event_type";--> statement-breakpoint
ALTER TABLE "hitl_events" RENAME COLUMN "outcome" TO "decision_outcome";--> statement-breakpoint
ALTER TABLE "hitl_events" RENAME COLUMN "reason" TO "notes";--> statement-breakpoint
ALTER TABLE "hitl_events" RENAME COLUMN "created_at" TO "created_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_events" ADD COLUMN "actor_kind" text;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD COLUMN "actor_team" text;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD COLUMN "principal_role" text;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD COLUMN "supersedes_event_id" text;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD COLUMN "event_json" text;--> statement-breakpoint
-- Before this migration actor_role was the principal's role, and only people and the system acted.
UPDATE "hitl_events" SET
  "notes" = coalesce("notes", ''),
  "actor_name" = coalesce("actor_name", "actor_id"),
  "principal_role" = "actor_role",
  "actor_kind" = CASE WHEN "actor_role" = 'system' THEN 'system' ELSE 'operator' END;--> statement-breakpoint
UPDATE "hitl_events" SET "event_json" = jsonb_strip_nulls(jsonb_build_object(
  'event_id', "event_id", 'case_id', "case_id", 'seq', "seq", 'event_type', "event_type",
  'request_id', "request_id", 'from_state', "from_state", 'to_state', "to_state",
  'decision_outcome', "decision_outcome", 'modifications', "modifications", 'notes', "notes",
  'question', "question", 'answer', "answer", 'escalation', "details",
  'actor', jsonb_build_object('kind', "actor_kind", 'id', "actor_id", 'name', "actor_name", 'role', "actor_role"),
  'created_at_ms', "created_at_ms"))::text;--> statement-breakpoint
ALTER TABLE "hitl_events" ALTER COLUMN "notes" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "hitl_events" ALTER COLUMN "notes" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_events" ALTER COLUMN "actor_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_events" ALTER COLUMN "actor_kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_events" ALTER COLUMN "principal_role" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_events" ALTER COLUMN "event_json" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_supersedes_event_id_hitl_events_event_id_fk" FOREIGN KEY ("supersedes_event_id") REFERENCES "public"."hitl_events"("event_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_type_check" CHECK ("hitl_events"."event_type" in ('submitted', 'needs_clarification', 'clarification_provided', 'decision_recorded', 'decision_superseded', 'escalated'));--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_actor_kind_check" CHECK ("hitl_events"."actor_kind" in ('operator', 'agent', 'system'));--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_decision_check" CHECK (("hitl_events"."event_type" in ('decision_recorded', 'decision_superseded')) = ("hitl_events"."decision_outcome" is not null and "hitl_events"."to_state" = "hitl_events"."decision_outcome"));--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_supersede_check" CHECK (("hitl_events"."event_type" = 'decision_superseded') = ("hitl_events"."supersedes_event_id" is not null) and ("hitl_events"."event_type" <> 'decision_superseded' or length(btrim("hitl_events"."notes")) > 0));--> statement-breakpoint
ALTER TABLE "hitl_events" ADD CONSTRAINT "hitl_events_text_length_check" CHECK (coalesce(length("hitl_events"."question"), 0) <= 4000 and coalesce(length("hitl_events"."answer"), 0) <= 4000 and length("hitl_events"."notes") <= 4000);--> statement-breakpoint
CREATE UNIQUE INDEX "hitl_events_supersedes_uq" ON "hitl_events" USING btree ("supersedes_event_id") WHERE "hitl_events"."supersedes_event_id" is not null;--> statement-breakpoint
CREATE INDEX "idx_hitl_events_case_created" ON "hitl_events" USING btree ("case_id","created_at_ms" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "idx_hitl_events_type_created" ON "hitl_events" USING btree ("tenant_id","event_type","created_at_ms" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "idx_hitl_events_decision_created" ON "hitl_events" USING btree ("tenant_id","decision_outcome","created_at_ms" DESC NULLS LAST) WHERE "hitl_events"."decision_outcome" is not null;--> statement-breakpoint
-- The design's UNIQUE(case_id, request_id) and its index on request_id, as one index; the
-- tenant/time index is covered by the type/time one for every query that used it.
CREATE UNIQUE INDEX "idx_hitl_events_request_id" ON "hitl_events" USING btree ("request_id","case_id");--> statement-breakpoint
DROP INDEX "hitl_events_request_uq";--> statement-breakpoint
DROP INDEX "hitl_events_tenant_created_idx";--> statement-breakpoint

-- ---- hitl_cases -----------------------------------------------------------------------------
ALTER TABLE "hitl_cases" DROP CONSTRAINT "hitl_cases_priority_check";--> statement-breakpoint
UPDATE "hitl_cases" SET "priority" = 'critical' WHERE "priority" = 'urgent';--> statement-breakpoint
ALTER TABLE "hitl_cases" RENAME COLUMN "id" TO "case_id";--> statement-breakpoint
ALTER TABLE "hitl_cases" RENAME COLUMN "adapter" TO "adapter_id";--> statement-breakpoint
ALTER TABLE "hitl_cases" RENAME COLUMN "payload" TO "payload_json";--> statement-breakpoint
ALTER TABLE "hitl_cases" RENAME COLUMN "created_by" TO "submitter_id";--> statement-breakpoint
ALTER TABLE "hitl_cases" RENAME COLUMN "created_at" TO "created_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_cases" RENAME COLUMN "due_at" TO "due_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "case_type" text;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "payload_hash_sha256" text;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "submitter_name" text;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "submitter_role" text;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "submitter_team" text;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "confidence" text;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD COLUMN "updated_at_ms" bigint;--> statement-breakpoint
-- Legacy rows: checkpoint cases are `checkpoint`s, others `review`s; the title is the summary
-- they had; the hash is over Postgres's jsonb text of the payload (SQL cannot write RFC 8785).
UPDATE "hitl_cases" c SET
  "case_type" = CASE WHEN c."adapter_id" IN ('plan_approval', 'tool_execution', 'subagent_spawn', 'critical_decision', 'final_review') THEN 'checkpoint' ELSE 'review' END,
  "title" = left(c."summary", 300),
  "payload_hash_sha256" = encode(sha256(convert_to(c."payload_json"::text, 'UTF8')), 'hex'),
  "submitter_name" = coalesce((SELECT e."actor_name" FROM "hitl_events" e WHERE e."case_id" = c."case_id" AND e."event_type" = 'submitted'), c."submitter_id"),
  "submitter_role" = coalesce((SELECT e."actor_role" FROM "hitl_events" e WHERE e."case_id" = c."case_id" AND e."event_type" = 'submitted'), 'member'),
  "updated_at_ms" = c."created_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_cases" ALTER COLUMN "case_type" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_cases" ALTER COLUMN "title" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_cases" ALTER COLUMN "payload_hash_sha256" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_cases" ALTER COLUMN "submitter_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_cases" ALTER COLUMN "submitter_role" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_cases" ALTER COLUMN "updated_at_ms" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD CONSTRAINT "hitl_cases_priority_check" CHECK ("hitl_cases"."priority" in ('low', 'normal', 'high', 'critical'));--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD CONSTRAINT "hitl_cases_confidence_check" CHECK ("hitl_cases"."confidence" is null or "hitl_cases"."confidence" in ('high', 'medium', 'low'));--> statement-breakpoint
ALTER TABLE "hitl_cases" ADD CONSTRAINT "hitl_cases_text_check" CHECK (length(btrim("hitl_cases"."case_type")) between 1 and 64 and length(btrim("hitl_cases"."title")) between 1 and 300 and length(btrim("hitl_cases"."submitter_name")) between 1 and 200 and length(btrim("hitl_cases"."submitter_role")) between 1 and 200);--> statement-breakpoint
CREATE INDEX "idx_hitl_cases_adapter_created" ON "hitl_cases" USING btree ("tenant_id","adapter_id","created_at_ms" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "idx_hitl_cases_priority_created" ON "hitl_cases" USING btree ("tenant_id","priority","created_at_ms" DESC NULLS LAST);--> statement-breakpoint

-- ---- hitl_state -----------------------------------------------------------------------------
UPDATE "hitl_state" SET "priority" = 'critical' WHERE "priority" = 'urgent';--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "adapter" TO "adapter_id";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "state" TO "current_state";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "outcome" TO "active_decision_outcome";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "decision_event_id" TO "active_terminal_event_id";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "decided_at" TO "decided_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "needs_clarification_since" TO "needs_clarification_since_ms";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "due_at" TO "escalation_due_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "escalated_to" TO "escalation_target";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "escalated_at" TO "escalated_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "next_escalation_at" TO "next_escalation_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "created_at" TO "created_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME COLUMN "updated_at" TO "updated_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_state" ADD CONSTRAINT "hitl_state_priority_check" CHECK ("hitl_state"."priority" in ('low', 'normal', 'high', 'critical'));--> statement-breakpoint
CREATE INDEX "idx_hitl_state_current_updated" ON "hitl_state" USING btree ("tenant_id","current_state","updated_at_ms" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "idx_hitl_state_escalation_due" ON "hitl_state" USING btree ("escalation_due_at_ms") WHERE "hitl_state"."escalation_due_at_ms" is not null;--> statement-breakpoint

-- ---- hitl_case_refs -------------------------------------------------------------------------
ALTER TABLE "hitl_case_refs" DROP CONSTRAINT "hitl_case_refs_kind_check";--> statement-breakpoint
DROP INDEX "hitl_case_refs_uq";--> statement-breakpoint
ALTER TABLE "hitl_case_refs" DROP CONSTRAINT "hitl_case_refs_pkey";--> statement-breakpoint
ALTER TABLE "hitl_case_refs" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "hitl_case_refs" RENAME COLUMN "kind" TO "ref_type";--> statement-breakpoint
ALTER TABLE "hitl_case_refs" RENAME COLUMN "ref_id" TO "ref_value";--> statement-breakpoint
ALTER TABLE "hitl_case_refs" RENAME COLUMN "created_at" TO "created_at_ms";--> statement-breakpoint
ALTER TABLE "hitl_case_refs" ADD COLUMN "ref_key" text DEFAULT 'id' NOT NULL;--> statement-breakpoint
ALTER TABLE "hitl_case_refs" ALTER COLUMN "ref_key" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "hitl_case_refs" ADD CONSTRAINT "hitl_case_refs_case_id_ref_type_ref_key_ref_value_pk" PRIMARY KEY("case_id","ref_type","ref_key","ref_value");--> statement-breakpoint
ALTER TABLE "hitl_case_refs" ADD CONSTRAINT "hitl_case_refs_type_check" CHECK ("hitl_case_refs"."ref_type" ~ '^[a-z][a-z0-9_]{0,63}$');--> statement-breakpoint
ALTER TABLE "hitl_case_refs" ADD CONSTRAINT "hitl_case_refs_key_check" CHECK (length("hitl_case_refs"."ref_key") between 1 and 200);--> statement-breakpoint

-- ---- the case keys, named for the renamed column --------------------------------------------
ALTER TABLE "hitl_case_refs" RENAME CONSTRAINT "hitl_case_refs_case_id_tenant_id_hitl_cases_id_tenant_id_fk" TO "hitl_case_refs_case_id_tenant_id_hitl_cases_case_id_tenant_id_fk";--> statement-breakpoint
ALTER TABLE "hitl_events" RENAME CONSTRAINT "hitl_events_case_id_tenant_id_hitl_cases_id_tenant_id_fk" TO "hitl_events_case_id_tenant_id_hitl_cases_case_id_tenant_id_fk";--> statement-breakpoint
ALTER TABLE "hitl_state" RENAME CONSTRAINT "hitl_state_case_id_tenant_id_hitl_cases_id_tenant_id_fk" TO "hitl_state_case_id_tenant_id_hitl_cases_case_id_tenant_id_fk";--> statement-breakpoint

-- ---- the sweeps' cross-tenant functions, on the new names -----------------------------------
CREATE OR REPLACE FUNCTION vigil_due_hitl_escalations(p_now bigint, p_limit integer)
RETURNS TABLE (tenant_id uuid, case_id text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT s.tenant_id, s.case_id FROM hitl_state s
  WHERE s.next_escalation_at_ms IS NOT NULL AND s.next_escalation_at_ms <= p_now
  ORDER BY s.next_escalation_at_ms
  LIMIT p_limit
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION vigil_decided_cases_awaiting_resume(p_limit integer)
RETURNS TABLE (tenant_id uuid, case_id text, run_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT s.tenant_id, s.case_id, r.id FROM hitl_state s
  JOIN hitl_case_refs ref ON ref.case_id = s.case_id AND ref.ref_type = 'run'
  JOIN runs r ON r.id::text = ref.ref_value AND r.tenant_id = s.tenant_id
  WHERE s.current_state IN ('approved', 'rejected') AND r.status = 'interrupted'
  ORDER BY s.decided_at_ms
  LIMIT p_limit
$$;
