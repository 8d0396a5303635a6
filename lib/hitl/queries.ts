import { and, asc, desc, eq, lt, or } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { errors, NotFoundError } from "@/lib/http";
import { toEventView } from "./commands";
import { toProjection } from "./projection";
import type { HitlCaseView, HitlEventView, HitlPage, HitlQueueItem } from "./types";

const cases = schema.hitlCases;
const events = schema.hitlEvents;
const state = schema.hitlState;
const refs = schema.hitlCaseRefs;

/** A case with its payload, references and current projection. */
export async function getCase(scope: TenantScope, caseId: string): Promise<HitlCaseView> {
  return withTenant(scope, async (tx) => {
    const [row] = await tx
      .select({ kase: cases, projection: state })
      .from(cases)
      .innerJoin(state, eq(state.caseId, cases.id))
      .where(eq(cases.id, caseId));
    if (!row) throw new NotFoundError("HITL case", { case_id: caseId });
    const links = await tx
      .select()
      .from(refs)
      .where(eq(refs.caseId, caseId))
      .orderBy(asc(refs.createdAt), asc(refs.id));
    return {
      id: row.kase.id,
      adapter: row.kase.adapter,
      schemaVersion: row.kase.schemaVersion,
      payload: row.kase.payload,
      summary: row.kase.summary,
      createdBy: row.kase.createdBy,
      createdAt: row.kase.createdAt,
      refs: links.map((l) => ({ kind: l.kind, id: l.refId })),
      state: toProjection(row.projection),
    };
  });
}

/** Every event of a case, in order. */
export async function caseHistory(scope: TenantScope, caseId: string): Promise<HitlEventView[]> {
  return withTenant(scope, async (tx) => {
    const [kase] = await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, caseId));
    if (!kase) throw new NotFoundError("HITL case", { case_id: caseId });
    const rows = await tx.select().from(events).where(eq(events.caseId, caseId)).orderBy(asc(events.seq));
    return rows.map(toEventView);
  });
}

export const QUEUE_PAGE_MAX = 100;

function encodeCursor(createdAt: number, caseId: string): string {
  return Buffer.from(JSON.stringify([createdAt, caseId]), "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: number; caseId: string } {
  try {
    const [createdAt, caseId] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof createdAt === "number" && Number.isSafeInteger(createdAt) && typeof caseId === "string") {
      return { createdAt, caseId };
    }
  } catch {
    // falls through to the refusal below
  }
  throw errors.invalidField("cursor", "The cursor is not one this list handed out.");
}

/** Pending cases, newest first, a page at a time (`nextCursor` null on the last page). */
export async function listReviewQueue(
  scope: TenantScope,
  options: { limit?: number; cursor?: string | null; adapter?: string } = {},
): Promise<HitlPage<HitlQueueItem>> {
  const requested = Number.isFinite(options.limit) ? Math.trunc(options.limit as number) : 20;
  const limit = Math.min(Math.max(requested, 1), QUEUE_PAGE_MAX);
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  return withTenant(scope, async (tx) => {
    const rows = await tx
      .select({
        id: cases.id,
        adapter: cases.adapter,
        summary: cases.summary,
        state: state.state,
        createdBy: cases.createdBy,
        createdAt: state.createdAt,
      })
      .from(state)
      .innerJoin(cases, eq(cases.id, state.caseId))
      .where(
        and(
          eq(state.state, "pending"),
          options.adapter ? eq(state.adapter, options.adapter) : undefined,
          after
            ? or(
                lt(state.createdAt, after.createdAt),
                and(eq(state.createdAt, after.createdAt), lt(state.caseId, after.caseId)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(state.createdAt), desc(state.caseId))
      .limit(limit + 1);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
  });
}
