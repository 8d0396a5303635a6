import { sql } from "drizzle-orm";
import { getDatabase, rowsOf } from "@/lib/db";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { logger } from "@/lib/log";
import { startSweep } from "@/lib/process";
import { analystSettings } from "./settings";

// The SQL agent design's conversation cleanup: the Data Analyst's conversation memory (its chat
// thread's checkpoints: the remembered turns and the last question's reading) is deleted once
// the conversation has been idle longer than CONVERSATION_MAX_AGE_HOURS. The chat session and its
// messages stay (they are the member's record, under the tenant's retention); a follow-up after
// the cleanup starts without the earlier reading, as a new conversation would.

const WORKFLOW = "sql-analyst";
/** Threads deleted per pass at most: a backlog is worked off over the next passes. */
const BATCH = 500;

/**
 * Deletes the conversation memory of Data Analyst threads idle longer than `maxAgeMs` (measured
 * on the database clock) and returns how many. A thread any other workflow wrote to, or with a
 * run still working or waiting, is left alone. Read across tenants on the owner connection like
 * the other sweeps; each thread is deleted through its tenant's checkpoint saver.
 */
export async function cleanupConversations(maxAgeMs: number = analystSettings().conversationMaxAgeMs): Promise<number> {
  const { db } = await getDatabase();
  const idle = rowsOf<{ tenant_id: string; thread_id: string }>(
    await db.execute(sql`select t.tenant_id, t.thread_id from checkpoint_threads t
      where t.last_activity_at < now() - make_interval(secs => ${maxAgeMs / 1000})
        and exists (select 1 from runs r
          where r.tenant_id = t.tenant_id and r.thread_id = t.thread_id and r.workflow = ${WORKFLOW})
        and not exists (select 1 from runs r
          where r.tenant_id = t.tenant_id and r.thread_id = t.thread_id
            and (r.workflow <> ${WORKFLOW} or r.status in ('running', 'interrupted')))
      order by t.last_activity_at
      limit ${BATCH}`),
  );
  let deleted = 0;
  for (const { tenant_id, thread_id } of idle) {
    try {
      await new DrizzleCheckpointSaver({ tenantId: tenant_id }).deleteThread(thread_id);
      deleted += 1;
    } catch (error) {
      logger({ tenantId: tenant_id }).error({ err: error }, "conversation cleanup failed for a thread");
    }
  }
  return deleted;
}

export const CONVERSATION_CLEANUP_SWEEP = "sql-conversation-cleanup";

/** Runs the cleanup at start and every CONVERSATION_CLEANUP_INTERVAL_HOURS (the design's background task). */
export function startConversationCleanup(): void {
  startSweep({
    name: CONVERSATION_CLEANUP_SWEEP,
    everyMs: analystSettings().conversationCleanupEveryMs,
    run: () => cleanupConversations(),
  });
}
