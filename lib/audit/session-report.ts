import { sql } from "drizzle-orm";
import { rowsOf, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { AuditSessionReport } from "./contract";
import { auditRunReport } from "./run-report";
import type { AuditReader } from "./runs-list";

/** A session's report holds at most this many runs; a longer conversation says so. */
export const SESSION_REPORT_MAX_RUNS = 50;

interface SessionRow {
  id: string;
  runs: number;
  events: number;
  tokens: number;
  cost_usd: number | string;
  errors: number;
  phi_accesses: number;
}

/**
 * Every run of one chat session (a chat turn runs on the session's thread; an autonomous run
 * started from the chat names the session in its input), each reported as on its own, with
 * totals over all of them. An unknown session, or another tenant's, is not found.
 */
export async function auditSessionReport(reader: AuditReader, sessionId: string): Promise<AuditSessionReport> {
  const rows = await withTenant(reader, async (tx) =>
    rowsOf<SessionRow>(
      await tx.execute(sql`
        with mine as (
          select r.id, r.created_at from runs r
          where coalesce(r.input->>'sessionId', substring(r.thread_id from '^chat:([0-9a-f-]{36})$')) = ${sessionId}
        ), totals as (
          select count(*)::int as events, coalesce(sum(t.tokens_used), 0)::float8 as tokens,
            coalesce(sum(t.cost_usd), 0)::float8 as cost_usd,
            (count(*) filter (where not t.event_success))::int as errors,
            (count(*) filter (where t.phi_accessed))::int as phi_accesses
          from execution_trace t where t.run_id in (select id from mine)
        )
        select m.id, (select count(*)::int from mine) as runs, totals.*
        from mine m, totals order by m.created_at, m.id limit ${SESSION_REPORT_MAX_RUNS}`),
    ),
  );
  if (rows.length === 0) throw new NotFoundError("Session", { session_id: sessionId });
  const runs = [];
  for (const row of rows) runs.push(await auditRunReport(reader, row.id));
  const first = rows[0];
  return {
    sessionId,
    generatedAt: new Date().toISOString(),
    runs,
    runsTruncated: first.runs > rows.length,
    totals: {
      runs: first.runs,
      events: first.events,
      tokens: Number(first.tokens),
      costUsd: Number(first.cost_usd),
      errors: first.errors,
      phiAccesses: first.phi_accesses,
    },
  };
}
