import { asc, eq, sql } from "drizzle-orm";
import { schema, withTenant } from "@/lib/db";
import { errors } from "@/lib/errors";
import { getRun, type RunActor, visibleRun } from "@/lib/runs";
import type { AutonomousPublicState } from "../contract";

export interface SteeringView {
  seq: number;
  message: string;
  createdBy: string;
  createdAt: string;
  /** The ReAct iteration it reached the agent at; null while it waits for the next safe point. */
  deliveredAt: number | null;
  addedSteps: string[];
}

/**
 * Steering: the run's owner tells a working agent something; it is stored at once and delivered
 * at the agent's next safe point (between ReAct iterations), where it re-plans what is left.
 * Only the owner may steer, and only a run still at work (running, or waiting at a checkpoint).
 */
export async function sendSteering(actor: RunActor, runId: string, message: string): Promise<SteeringView> {
  const run = await visibleRun(actor, runId);
  if (run.workflow !== "autonomous") {
    throw errors.conflict("RUN_NOT_STEERABLE", "Only autonomous runs take steering messages.");
  }
  if (run.createdBy !== actor.userId) throw errors.forbidden("Only the person who started a run can steer it.");
  if (run.status !== "running" && run.status !== "interrupted") {
    throw errors.conflict("RUN_NOT_ACTIVE", `The run is ${run.status}: it takes no more messages.`, {
      status: run.status,
    });
  }
  const m = schema.runMessages;
  const [row] = await withTenant(actor, async (tx) => {
    // Serialises a run's messages, so their seq has no gaps or duplicates.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`run-messages:${runId}`}))`);
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${m.seq}), 0) + 1` })
      .from(m)
      .where(eq(m.runId, runId));
    return tx
      .insert(m)
      .values({ tenantId: actor.tenantId, runId, seq: Number(next), body: message, createdBy: actor.userId })
      .returning();
  });
  return {
    seq: row.seq,
    message: row.body,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: null,
    addedSteps: [],
  };
}

/** A run's steering messages, each with whether (and where) the agent has read it. */
export async function listSteering(actor: RunActor, runId: string): Promise<SteeringView[]> {
  const view = await getRun(actor, runId);
  const delivered = new Map(((view.state as AutonomousPublicState).steering ?? []).map((s) => [s.seq, s]));
  const m = schema.runMessages;
  const rows = await withTenant(actor, (tx) => tx.select().from(m).where(eq(m.runId, runId)).orderBy(asc(m.seq)));
  return rows.map((row) => ({
    seq: row.seq,
    message: row.body,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: delivered.get(row.seq)?.deliveredAt ?? null,
    addedSteps: delivered.get(row.seq)?.addedSteps ?? [],
  }));
}
