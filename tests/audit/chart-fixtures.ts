import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { TestDatabase } from "../support/databases";

// Review cases written straight into the HITL tables at chosen instants (the HITL commands
// stamp the wall clock), with the state projection the events imply, and the figures a chart
// should show, worked out here from the fixture alone.

export const DAY_MS = 86_400_000;

export type FixtureEvent =
  | { type: "needs_clarification"; at: string }
  | { type: "clarification_provided"; at: string }
  | {
      type: "decision_recorded" | "decision_superseded";
      at: string;
      outcome: "approved" | "rejected";
      modified?: boolean;
      /** Vigil's own decision (a timeout). */
      system?: boolean;
    };

export interface FixtureCase {
  submittedAt: string;
  events: FixtureEvent[];
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** The case's state after its events: the standing decision, an open question, or pending. */
export function stateOf(c: FixtureCase): string {
  let state = "pending";
  for (const e of c.events) {
    if (e.type === "needs_clarification") state = "needs_clarification";
    else if (e.type === "clarification_provided") state = "pending";
    else state = e.outcome;
  }
  return state;
}

export async function insertCase(database: TestDatabase, tenantId: string, c: FixtureCase): Promise<string> {
  const caseId = `HITL-${randomUUID()}`;
  const submitted = Date.parse(c.submittedAt);
  await database.db.execute(sql`insert into hitl_cases (case_id, tenant_id, adapter_id, schema_version, case_type,
      title, summary, payload_json, payload_hash_sha256, submitter_name, submitter_role, submitter_id, request_id,
      created_at_ms, updated_at_ms)
    values (${caseId}, ${tenantId}, 'chart_fixture', 1, 'question', 'Chart fixture', 'A case for the charts', '{}'::jsonb,
      ${sha("{}")}, 'Erin Expert', 'member', 'chart-member', ${`submit-${caseId}`}, ${submitted}, ${submitted})`);
  let state = "pending";
  let seq = 0;
  let lastEventId = "";
  let lastDecisionId: string | null = null;
  const append = async (event: {
    type: string;
    at: number;
    to: string;
    outcome?: string | null;
    modifications?: Record<string, unknown> | null;
    question?: string | null;
    answer?: string | null;
    supersedes?: string | null;
    system?: boolean;
  }) => {
    seq += 1;
    const eventId = `HEV-${randomUUID()}`;
    const actor = event.system
      ? { kind: "system", id: "system", name: "Vigil (checkpoint timeout)", role: "system" }
      : { kind: "operator", id: "chart-reviewer", name: "Riley Reviewer", role: "reviewer" };
    await database.db.execute(sql`insert into hitl_events (event_id, tenant_id, case_id, seq, event_type, request_id,
        intent_hash, from_state, to_state, actor_kind, actor_id, actor_name, actor_role, principal_role, question,
        answer, decision_outcome, modifications, notes, supersedes_event_id, event_json, created_at_ms)
      values (${eventId}, ${tenantId}, ${caseId}, ${seq}, ${event.type}, ${`req-${eventId}`}, ${sha(eventId)},
        ${seq === 1 ? null : state}, ${event.to}, ${actor.kind}, ${actor.id}, ${actor.name}, ${actor.role}, ${actor.role},
        ${event.question ?? null}, ${event.answer ?? null}, ${event.outcome ?? null},
        ${event.modifications ? JSON.stringify(event.modifications) : null}::jsonb,
        ${event.supersedes ? "A better decision" : ""}, ${event.supersedes ?? null}, '{}', ${event.at})`);
    state = event.to;
    lastEventId = eventId;
    return eventId;
  };
  await append({ type: "submitted", at: submitted, to: "pending" });
  for (const e of c.events) {
    const at = Date.parse(e.at);
    if (e.type === "needs_clarification") {
      await append({ type: e.type, at, to: "needs_clarification", question: "Which line?" });
    } else if (e.type === "clarification_provided") {
      await append({ type: e.type, at, to: "pending", answer: "Line 4." });
    } else {
      lastDecisionId = await append({
        type: e.type,
        at,
        to: e.outcome,
        outcome: e.outcome,
        modifications: e.modified ? { proposed_next_action: "Check the sensor first" } : null,
        supersedes: e.type === "decision_superseded" ? lastDecisionId : null,
        system: e.system,
      });
    }
  }
  const decided = state === "approved" || state === "rejected";
  await database.db.execute(sql`insert into hitl_state (case_id, tenant_id, adapter_id, current_state, last_seq,
      last_event_id, active_decision_outcome, active_terminal_event_id, created_at_ms, updated_at_ms)
    values (${caseId}, ${tenantId}, 'chart_fixture', ${state}, ${seq}, ${lastEventId}, ${decided ? state : null},
      ${decided ? lastDecisionId : null}, ${submitted}, ${submitted})`);
  return caseId;
}

/** The UTC days from `first` to `last`, inclusive. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

export const dayOfIso = (iso: string) => new Date(iso).toISOString().slice(0, 10);

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
