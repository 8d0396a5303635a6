import { type SQL, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rowsOf, withTenant } from "@/lib/db";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { databaseFor, putChain, toArray } from "@/tests/graph-saver/fixtures";
import { createTenant } from "@/tests/graph-saver/tenants";
import { testTargets } from "@/tests/support/databases";
// White-box: the plan of the very statement list() sends is what this file is about.
import { selectTuples } from "./select-sql";

const THREADS = 150;
const STEPS = 6;
/** Threads written at once (two chains each, one per tenant): under the pool's ten connections. */
const PARALLEL_THREADS = 4;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** Runs `statement` under EXPLAIN ANALYZE as the app role of `tenantId` and returns every plan node. */
async function analyze(tenantId: string, statement: SQL): Promise<PlanNode[]> {
  const rows = await withTenant({ tenantId }, async (tx) =>
    rowsOf<Record<string, unknown>>(await tx.execute(sql`explain (analyze, format json) ${statement}`)),
  );
  const raw = rows[0]["QUERY PLAN"];
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  return nodesOf(plan[0].Plan);
}

/** Rows the plan read from the checkpoints table, before any filter dropped them. */
function checkpointRowsRead(nodes: PlanNode[]): number {
  return nodes
    .filter((n) => n["Relation Name"] === "checkpoints")
    .reduce(
      (sum, n) =>
        sum +
        ((n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) *
          (n["Actual Loops"] ?? 1),
      0,
    );
}

for (const target of testTargets()) {
  describe(`list by metadata uses an index (${target.name})`, () => {
    const db = databaseFor(target);
    let tenantId: string;
    let saver: DrizzleCheckpointSaver;

    beforeAll(async () => {
      tenantId = await createTenant(db.database, "metadata");
      saver = new DrizzleCheckpointSaver({ tenantId });
      // A second tenant with the same run ids: its rows must neither match nor be read.
      const other = new DrizzleCheckpointSaver({ tenantId: await createTenant(db.database, "metadata-other") });
      const steps = (thread: number) =>
        Array.from({ length: STEPS }, (_, step) => ({ changed: { n: step }, metadata: { run_id: `run-${thread}` } }));
      // Threads are independent: a few at a time keep the server's pool busy (each chain is a run of
      // small transactions) without passing its size; an embedded database takes them in turn.
      for (let first = 0; first < THREADS; first += PARALLEL_THREADS) {
        const batch = Array.from({ length: Math.min(PARALLEL_THREADS, THREADS - first) }, (_, i) => first + i);
        await Promise.all(
          batch.flatMap((thread) => [
            putChain(saver, `thread-${thread}`, steps(thread)),
            putChain(other, `thread-${thread}`, steps(thread)),
          ]),
        );
      }
      await db.database.db.execute(sql`analyze`);
    }, 300_000);

    it("finds the checkpoints of one run across threads", async () => {
      const found = await toArray(saver.list({}, { filter: { run_id: "run-17" } }));
      expect(found.map((t) => t.config.configurable?.thread_id)).toEqual(Array(STEPS).fill("thread-17"));
      expect(found.map((t) => t.metadata?.step)).toEqual([5, 4, 3, 2, 1, 0]);

      const one = await toArray(saver.list({}, { filter: { run_id: "run-17", step: 3 }, limit: 10 }));
      expect(one.map((t) => t.metadata?.step)).toEqual([3]);
    });

    it("reads only the matching checkpoint rows, through the metadata terms index", async () => {
      const nodes = await analyze(tenantId, selectTuples({ filter: { run_id: "run-17" }, limit: 10 }));

      expect(nodes.some((n) => n["Index Name"] === "checkpoint_metadata_terms_pkey")).toBe(true);
      expect(nodes.filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "checkpoints")).toEqual([]);
      expect(checkpointRowsRead(nodes)).toBe(STEPS);
    });

    it("reads the whole tenant without the terms, so the check above is not vacuous", async () => {
      // Plain containment, as the official saver queries: under row-level security the planner
      // cannot use an index for a non-leakproof operator such as jsonb @>.
      const nodes = await analyze(
        tenantId,
        sql`select checkpoint_id from checkpoints where metadata @> ${JSON.stringify({ run_id: "run-17" })}::jsonb`,
      );
      expect(checkpointRowsRead(nodes)).toBeGreaterThanOrEqual(THREADS * STEPS);
    });
  });
}
