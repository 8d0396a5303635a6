import { type SQL, sql } from "drizzle-orm";

/**
 * The agent a run worked as, for a lateral join on a `runs` row (alias given): an autonomous
 * run names it in its input (id or slug), a chat turn through its conversation.
 */
export function runAgent(run: SQL): SQL {
  return sql`(
    select a.id, a.slug, a.name from agents a
    where a.id::text = coalesce(${run}.input->>'agentId', (
        select cs.agent_id::text from chat_sessions cs
        where cs.id::text = coalesce(${run}.input->>'sessionId', substring(${run}.thread_id from '^chat:([0-9a-f-]{36})$'))))
      or a.slug = ${run}.input->>'agentId'
    limit 1)`;
}
