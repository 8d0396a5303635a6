import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Role } from "@/lib/access";
import { type Database, rowsOf, type TenantScope } from "@/lib/db";
import { executionSettled, getRun, type RunActor, type RunEvent, readEvents } from "@/lib/runs";
import { drainTrace, verifyChain } from "@/lib/trace";
import type { SeededTenants } from "./seeded";

export function actorFor(
  tenants: SeededTenants,
  role: Role = "member",
  userId = `user-${role}`,
  tenant: keyof SeededTenants = "demo",
): RunActor {
  return { tenantId: tenants[tenant], userId, role };
}

/** Waits until the run leaves `running` in this process (or the deadline passes). */
export async function settled(actor: RunActor, runId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await executionSettled(runId);
    const run = await getRun(actor, runId);
    if (run.status !== "running" || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function allEvents(actor: RunActor, runId: string): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for (;;) {
    const page = await readEvents(actor, runId, out.at(-1)?.seq ?? 0, 500);
    out.push(...page);
    if (page.length < 500) return out;
  }
}

/** Every event once, numbered 1..n without gaps. */
export function expectContiguous(events: RunEvent[]) {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
}

export function visibleText(events: RunEvent[]): string {
  return events
    .filter((e): e is Extract<RunEvent, { type: "text" }> => e.type === "text")
    .map((e) => e.payload.delta)
    .join("");
}

export async function traceTypes(database: Database, runId: string): Promise<string[]> {
  const r = await database.db.execute(sql`select event_type from execution_trace where run_id = ${runId} order by seq`);
  return rowsOf<{ event_type: string }>(r).map((x) => x.event_type);
}

/**
 * The run's trace tells its whole story once: one start and one end of the run, every node
 * execution that started ended (completed, failed, or stopped for a person), every stop for a
 * person answered, no event twice, and the chain verifies.
 */
export async function expectCompleteTrace(
  database: Database,
  scope: TenantScope,
  runId: string,
  /** How many times each node ran, for graphs with loops; once each otherwise. */
  completions: (node: string | null) => number = () => 1,
): Promise<string[]> {
  await drainTrace();
  const rows = rowsOf<{ trace_id: string; event_type: string; node_name: string | null }>(
    await database.db.execute(
      sql`select trace_id, event_type, node_name from execution_trace where run_id = ${runId} order by seq`,
    ),
  );
  const types = rows.map((r) => r.event_type);
  const count = (type: string, node?: string | null) =>
    rows.filter((r) => r.event_type === type && (node === undefined || r.node_name === node)).length;
  expect(new Set(rows.map((r) => r.trace_id)).size).toBe(rows.length);
  expect(count("run_start")).toBe(1);
  expect(count("run_complete") + count("run_failed") + count("run_cancelled")).toBe(1);
  for (const node of new Set(rows.filter((r) => r.event_type === "node_start").map((r) => r.node_name))) {
    expect(count("node_complete", node) + count("node_error", node) + count("hitl_request", node), `node ${node}`).toBe(
      count("node_start", node),
    );
  }
  // A finished run's nodes each completed as often as they ran: an end is recorded with the node's result.
  if (count("run_complete") === 1) {
    for (const node of new Set(rows.filter((r) => r.event_type === "node_start").map((r) => r.node_name))) {
      expect(count("node_complete", node), `node ${node} completed as often as it ran`).toBe(completions(node));
    }
  }
  expect(count("hitl_response")).toBe(count("hitl_request"));
  expect(await verifyChain(scope)).toMatchObject({ status: "ok", pending: 0 });
  return types;
}
