import { and, eq, sql } from "drizzle-orm";
import { schema, type Tx } from "@/lib/db";

// A checkpoint's clock stops while its case waits for the run's owner to answer a reviewer's
// question: the reviewer cannot decide without the answer, so silence then is not the
// reviewer's. Answering starts a full timeout again, so the reviewer has the whole window to
// decide with the answer in hand. Computed from the case's history; nothing extra is stored.

export interface CheckpointClock {
  /** When the checkpoint times out (epoch ms); null while the clock is paused. */
  expiresAt: number | null;
  /** True while the case waits for the owner's answer to a reviewer's question. */
  paused: boolean;
}

/** The case state and the time of its latest answered clarification, read with the checkpoint. */
export interface ClockInputs {
  expiresAt: number;
  timeoutSeconds: number;
  caseState: string | null;
  lastAnsweredAt: number | null;
}

export function checkpointClock(inputs: ClockInputs): CheckpointClock {
  if (inputs.caseState === "needs_clarification") return { expiresAt: null, paused: true };
  const afterAnswer = inputs.lastAnsweredAt === null ? 0 : inputs.lastAnsweredAt + inputs.timeoutSeconds * 1000;
  return { expiresAt: Math.max(inputs.expiresAt, afterAnswer), paused: false };
}

/** The SQL columns a checkpoint query adds to compute its clock (join `hitl_state` on the case). */
export const clockColumns = {
  caseState: schema.hitlState.state,
  openQuestion: schema.hitlState.openQuestion,
  lastAnsweredAt: sql<number | null>`(select max(e.created_at_ms) from hitl_events e
    where e.case_id = ${schema.hitlCheckpoints.caseId} and e.event_type = 'clarification_provided')`.mapWith(
    (v: unknown) => (v === null ? null : Number(v)),
  ),
};

/** The clock of one checkpoint, read in the caller's transaction. */
export async function clockOfCheckpointIn(
  tx: Tx,
  row: { caseId: string; expiresAt: Date; timeoutSeconds: number },
): Promise<CheckpointClock & { caseState: string | null }> {
  const [found] = await tx
    .select(clockColumns)
    .from(schema.hitlCheckpoints)
    .leftJoin(schema.hitlState, eq(schema.hitlState.caseId, schema.hitlCheckpoints.caseId))
    .where(and(eq(schema.hitlCheckpoints.caseId, row.caseId)))
    .limit(1);
  const caseState = found?.caseState ?? null;
  return {
    ...checkpointClock({
      expiresAt: row.expiresAt.getTime(),
      timeoutSeconds: row.timeoutSeconds,
      caseState,
      lastAnsweredAt: found?.lastAnsweredAt ?? null,
    }),
    caseState,
  };
}
