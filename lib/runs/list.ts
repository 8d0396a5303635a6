import { and, desc, eq, lt, notInArray, or, type SQL, sql } from "drizzle-orm";
import { roleAtLeast } from "@/lib/access";
import { decodeCursor, encodeCursor, keysetParts, schema, withTenant } from "@/lib/db";
import type { RunListItem, RunStatus } from "./contract";
import type { RunActor } from "./lifecycle";
import { privateWorkflows } from "./visibility";

const r = schema.runs;

function decode(cursor: string): { at: Date; id: string } {
  const [ms, id] = decodeCursor(cursor, keysetParts.integer, keysetParts.uuid);
  return { at: new Date(ms), id };
}

const titleOf = (input: unknown): string => {
  const i = (input ?? {}) as Record<string, unknown>;
  const text =
    typeof i.goal === "string"
      ? i.goal
      : typeof i.message === "string"
        ? i.message
        : typeof i.title === "string"
          ? i.title
          : "";
  return text.slice(0, 200);
};

/**
 * A person's runs, newest first (reviewers and admins may ask for everyone's with `all`, which
 * leaves out other people's private runs), a page at a time by keyset on (created_at, id).
 */
export async function listRuns(
  actor: RunActor,
  query: { workflow?: string; status?: RunStatus; all?: boolean; limit?: number; cursor?: string },
): Promise<{ items: RunListItem[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? 20), 1), 100);
  const after = query.cursor ? decode(query.cursor) : null;
  const everyone = query.all && roleAtLeast(actor.role, "reviewer");
  const where: (SQL | undefined)[] = [
    everyone
      ? or(eq(r.createdBy, actor.userId), notInArray(r.workflow, privateWorkflows()))
      : eq(r.createdBy, actor.userId),
    query.workflow ? eq(r.workflow, query.workflow) : undefined,
    query.status ? eq(r.status, query.status) : undefined,
    after ? or(lt(r.createdAt, after.at), and(eq(r.createdAt, after.at), lt(r.id, after.id))) : undefined,
  ];
  const rows = await withTenant(actor, (tx) =>
    tx
      .select({
        id: r.id,
        workflow: r.workflow,
        status: r.status,
        input: r.input,
        createdBy: r.createdBy,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        finishedAt: r.finishedAt,
        // The outcome its finish event carries, read with the page rather than run by run.
        outcome: sql<RunListItem["outcome"]>`(select e.payload->'metadata'->'outcome' from run_events e
          where e.run_id = ${r.id} and e.type = 'finish' order by e.seq desc limit 1)`,
      })
      .from(r)
      .where(and(...where))
      .orderBy(desc(r.createdAt), desc(r.id))
      .limit(limit + 1),
  );
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map((row) => ({
      id: row.id,
      workflow: row.workflow,
      status: row.status,
      title: titleOf(row.input),
      createdBy: row.createdBy,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      outcome: row.outcome ?? null,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt.getTime(), last.id) : null,
  };
}
