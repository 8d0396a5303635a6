// Cases loaded straight into the HITL tables (as the owner), shaped as the commands write them,
// for benchmarks that need a large review history without submitting it case by case.

import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { sql } from "drizzle-orm";
import { getDatabase } from "@/lib/db";

/** An `lgv_troubleshooting` case payload, varied by `i`. */
export const benchCasePayload = (i: number) => ({
  symptom: `LGV ${i % 40} stops at the dock entrance and reports a navigation fault`,
  site: `DC${i % 7}`,
  lgv_id: `LGV-${String(i % 40).padStart(2, "0")}`,
  services_checked: ["navigation", "wifi"],
  connection_path: "WMS -> fleet manager -> LGV",
  evidence: [{ source: "fleet manager log", observation: "NAV_LOST at 03:12" }],
  missing_data: ["reflector survey"],
  proposed_next_action: "Re-survey reflectors in aisle 4",
});

/** SHA-256 of the payload's RFC 8785 canonical JSON, as submit_case stores it. */
export const payloadHash = (value: Record<string, unknown>) =>
  createHash("sha256")
    .update(canonicalize(value) ?? "")
    .digest("hex");

/** Bulk-loads cases straight into the tables (as the owner), consistent with what commands write. */
export async function fillCases(
  tenantId: string,
  total: number,
  spread: { startMs: number; stepMs: number; openShare: number },
) {
  const { db } = await getDatabase();
  const base = spread.startMs;
  const openEvery = Math.round(1 / spread.openShare);
  await db.execute(sql`
    insert into hitl_cases (case_id, tenant_id, adapter_id, schema_version, case_type, title, summary, payload_json,
                            payload_hash_sha256, submitter_name, submitter_role, submitter_id, request_id, priority,
                            created_at_ms, updated_at_ms)
    select 'HITL-' || gen_random_uuid(), ${tenantId}, 'lgv_troubleshooting', 1, 'review', line, line,
           ${JSON.stringify(benchCasePayload(0))}::jsonb, ${payloadHash(benchCasePayload(0))}, 'Bench Member', 'member', 'bench-member',
           -- Spread over the open cases too (every openEvery-th case stays open).
           'bulk-' || i, (array['low','normal','normal','high','critical'])[1 + (i / ${openEvery}) % 5], at, at
    from generate_series(1, ${total}) i,
         lateral (select 'LGV-' || (i % 40) || ' at DC' || (i % 7) || ': Re-survey reflectors in aisle 4' as line,
                         ${base}::bigint + i * ${spread.stepMs}::bigint as at) v`);
  // Fresh statistics before the events go in: their foreign key checks are planned against
  // hitl_cases, and a plan made while it looked tiny scans it for every one of ~100,000 rows.
  await db.execute(sql`analyze hitl_cases`);
  // The events' event_json as the commands write it: the columns, nulls left out.
  await db.execute(sql`
    insert into hitl_events (event_id, tenant_id, case_id, seq, event_type, request_id, intent_hash, from_state, to_state,
                             actor_kind, actor_id, actor_name, actor_role, principal_role, event_json, created_at_ms)
    select id, tenant_id, case_id, 1, 'submitted', request_id, 'bulk', null, 'pending',
           'operator', submitter_id, submitter_name, 'member', 'member',
           jsonb_build_object('event_id', id, 'case_id', case_id, 'seq', 1, 'event_type', 'submitted',
             'request_id', request_id, 'to_state', 'pending', 'notes', '',
             'actor', jsonb_build_object('kind', 'operator', 'id', submitter_id, 'name', submitter_name,
               'role', 'member', 'principal_role', 'member'),
             'created_at_ms', created_at_ms)::text,
           created_at_ms
    from (select 'HEV-' || gen_random_uuid() as id, * from hitl_cases
          where tenant_id = ${tenantId} and request_id like 'bulk-%') c`);
  await db.execute(sql`
    insert into hitl_events (event_id, tenant_id, case_id, seq, event_type, request_id, intent_hash, from_state, to_state,
                             actor_kind, actor_id, actor_name, actor_role, principal_role, decision_outcome, event_json,
                             created_at_ms)
    select id, tenant_id, case_id, 2, 'decision_recorded', rid, 'bulk', 'pending', 'approved',
           'operator', 'bench-reviewer', 'Bench Rev', 'reviewer', 'reviewer', 'approved',
           jsonb_build_object('event_id', id, 'case_id', case_id, 'seq', 2, 'event_type', 'decision_recorded',
             'request_id', rid, 'from_state', 'pending', 'to_state', 'approved', 'decision_outcome', 'approved',
             'notes', '', 'actor', jsonb_build_object('kind', 'operator', 'id', 'bench-reviewer', 'name', 'Bench Rev',
               'role', 'reviewer', 'principal_role', 'reviewer'),
             'created_at_ms', created_at_ms + 500)::text,
           created_at_ms + 500
    from (select 'HEV-' || gen_random_uuid() as id, 'bulk-decision-' || case_id as rid, * from hitl_cases
          where tenant_id = ${tenantId} and request_id like 'bulk-%'
            and (substring(request_id from 6))::int % ${openEvery} <> 0) c`);
  await db.execute(sql`
    insert into hitl_state (case_id, tenant_id, adapter_id, current_state, last_seq, last_event_id,
                            active_decision_outcome, active_terminal_event_id, decided_by, decided_at_ms,
                            clarification_rounds, priority, escalation_level, created_at_ms, updated_at_ms)
    select c.case_id, c.tenant_id, c.adapter_id, coalesce(d.decision_outcome, 'pending'), coalesce(d.seq, 1),
           coalesce(d.event_id, s.event_id), d.decision_outcome, d.event_id, d.actor_id, d.created_at_ms, 0, c.priority,
           0, c.created_at_ms, coalesce(d.created_at_ms, c.created_at_ms)
    from hitl_cases c
    join hitl_events s on s.case_id = c.case_id and s.seq = 1
    left join hitl_events d on d.case_id = c.case_id and d.seq = 2
    where c.tenant_id = ${tenantId} and c.request_id like 'bulk-%'`);
  await db.execute(sql`analyze hitl_cases; analyze hitl_events; analyze hitl_state`);
}
