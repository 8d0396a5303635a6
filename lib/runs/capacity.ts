import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import { config } from "@/lib/config";
import { schema, type Tx } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import type { RunActor } from "./lifecycle";
import { workflowNamesWhere } from "./registry";

const RETRY_AFTER_SECONDS = 5;

/** How many capped runs one person may have running at once (`VIGIL_MAX_RUNNING_RUNS`, default 3). */
function maxRunningRuns(): number {
  return config().maxRunningRuns;
}

/**
 * Refuses a new chat or autonomous run while its starter already has the maximum running, in
 * the transaction that would store it. Starts of one person are serialised by an advisory lock,
 * so two at once cannot both see room for one. Interrupted runs wait on people and use nothing,
 * so they do not count; nor does a resumed run, which is not a start; nor does a run whose lease
 * ran out or was handed over: no process works on it until recovery claims it, and a person whose
 * chats died with a server must not be refused new ones meanwhile.
 */
export async function claimRunCapacity(tx: Tx, actor: RunActor, workflow: string): Promise<void> {
  // The runs a person starts and that work on their behalf (`capped`): chat turns, autonomous runs.
  const capped = workflowNamesWhere((w) => w.capped);
  if (!capped.includes(workflow)) return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`runs:${actor.tenantId}:${actor.userId}`}, 0))`);
  const r = schema.runs;
  const [row] = await tx
    .select({ n: count() })
    .from(r)
    .where(
      and(
        eq(r.createdBy, actor.userId),
        eq(r.status, "running"),
        inArray(r.workflow, capped),
        gt(r.leaseExpiresAt, sql`now()`),
      ),
    );
  const limit = maxRunningRuns();
  if (Number(row?.n ?? 0) < limit) return;
  throw new DomainError(
    "rate_limited",
    "TOO_MANY_RUNS",
    `You have ${limit} runs working already; send this again when one of them has finished.`,
    { limit, retry_after: RETRY_AFTER_SECONDS },
  );
}
