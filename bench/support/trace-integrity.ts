import { sql } from "drizzle-orm";
import { type Database, rowsOf } from "@/lib/db";
import type { RunEvent } from "@/lib/runs";

/** The kinds of trace damage a run is checked for, in report order. */
export const TRACE_CHECKS = [
  "duplicated trace id",
  "identical event recorded twice",
  "run_start not exactly once",
  "run end not exactly once (run_complete)",
  "node start without one end (complete, error or hitl_request)",
  "hitl_request without its hitl_response",
  "hitl_request count ≠ checkpoints the run stopped at",
  "node start/end in the trace ≠ step in the run log",
  "left unchained in the outbox",
] as const;
export type TraceCheck = (typeof TRACE_CHECKS)[number];

interface TraceRow {
  trace_id: string;
  event_type: string;
  node_name: string | null;
  identity: string;
}

/**
 * What is wrong with one finished run's trace, as counts of lost or duplicated events by kind
 * (all zero for a sound trace). The rules are tests/support/runs.ts `expectCompleteTrace`'s —
 * one start and one end of the run, every node execution that started ended once (completed,
 * failed, or stopped for a person), every stop for a person answered, no event twice — with
 * "each node completed once" relaxed to "each start ended once", since an autonomous run's
 * ReAct loop runs its nodes many times. Two cross-checks are added: one hitl_request per
 * checkpoint the run was seen to stop at, and the trace's node starts and ends against the
 * run log's `step` events, which commit in the same transactions.
 */
export async function traceDamage(
  database: Database,
  runId: string,
  log: RunEvent[],
  stops: number,
): Promise<Map<TraceCheck, number>> {
  const rows = rowsOf<TraceRow>(
    await database.db.execute(
      sql`select trace_id, event_type, node_name,
            md5(concat_ws('|', event_type, node_name, event_data::text, event_timestamp::text, event_success::text,
              event_error, actor_id, event_duration_ms::text, agent_id, tokens_used::text)) as identity
          from execution_trace where run_id = ${runId} order by seq`,
    ),
  );
  const [{ pending }] = rowsOf<{ pending: number }>(
    await database.db.execute(sql`select count(*)::int as pending from execution_trace_outbox where run_id = ${runId}`),
  );
  const damage = new Map<TraceCheck, number>(TRACE_CHECKS.map((check) => [check, 0]));
  const add = (check: TraceCheck, n: number) => damage.set(check, (damage.get(check) ?? 0) + Math.abs(n));
  const count = (type: string, node?: string | null) =>
    rows.filter((r) => r.event_type === type && (node === undefined || r.node_name === node)).length;

  add("duplicated trace id", rows.length - new Set(rows.map((r) => r.trace_id)).size);
  add("identical event recorded twice", rows.length - new Set(rows.map((r) => r.identity)).size);
  add("run_start not exactly once", count("run_start") - 1);
  add(
    "run end not exactly once (run_complete)",
    count("run_complete") + count("run_failed") + count("run_cancelled") - 1,
  );
  const nodes = new Set(rows.filter((r) => r.event_type === "node_start").map((r) => r.node_name));
  for (const node of nodes) {
    add(
      "node start without one end (complete, error or hitl_request)",
      count("node_start", node) -
        count("node_complete", node) -
        count("node_error", node) -
        count("hitl_request", node),
    );
  }
  add("hitl_request without its hitl_response", count("hitl_request") - count("hitl_response"));
  add("hitl_request count ≠ checkpoints the run stopped at", count("hitl_request") - stops);

  // The run log's own record of each node: `step` running / done / error, written by the same
  // task log call as node_start / node_complete / node_error. (`progress` and `recovery` steps
  // are a node's messages and the executor's, not node boundaries.)
  const steps = log.filter(
    (e): e is Extract<RunEvent, { type: "step" }> =>
      e.type === "step" && e.payload.node !== "progress" && e.payload.node !== "recovery",
  );
  const logNodes = new Set([...nodes, ...steps.map((s) => s.payload.node)]);
  const stepCount = (node: string | null, status: string) =>
    steps.filter((s) => s.payload.node === node && s.payload.status === status).length;
  for (const node of logNodes) {
    add("node start/end in the trace ≠ step in the run log", stepCount(node, "running") - count("node_start", node));
    add("node start/end in the trace ≠ step in the run log", stepCount(node, "done") - count("node_complete", node));
    add("node start/end in the trace ≠ step in the run log", stepCount(node, "error") - count("node_error", node));
  }
  add("left unchained in the outbox", pending);
  return damage;
}
