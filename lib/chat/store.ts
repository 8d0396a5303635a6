import { and, asc, desc, eq, sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, type Tx } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { usableAgent } from "@/lib/experts";
import type {
  ChatAgentRef,
  ChatMessageMetadata,
  ChatMessageView,
  ChatSessionListItem,
  ReviewState,
  SourceItem,
} from "./contract";
import { previewOf, threadOfSession } from "./limits";
import type { ChatActor } from "./types";

const s = schema.chatSessions;
const m = schema.chatMessages;
const a = schema.agents;
const r = schema.runs;

export type AgentRow = typeof schema.agents.$inferSelect;
export type SessionRow = typeof schema.chatSessions.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/** A usable agent of the tenant (active, its workflow available) by id or slug. */
export async function agentIn(tx: Tx, ref: string): Promise<AgentRow | null> {
  const [row] = await tx
    .select()
    .from(a)
    .where(and(isUuid(ref) ? eq(a.id, ref) : eq(a.slug, ref), usableAgent()))
    .limit(1);
  return row ?? null;
}

export async function agentByIdIn(tx: Tx, id: string): Promise<AgentRow | null> {
  const [row] = await tx.select().from(a).where(eq(a.id, id)).limit(1);
  return row ?? null;
}

/** The session when it belongs to this person (RLS already keeps other tenants out). */
export async function ownSessionIn(tx: Tx, actor: ChatActor, sessionId: string): Promise<SessionRow> {
  const row = isUuid(sessionId) ? await sessionIn(tx, sessionId) : null;
  if (!row || row.userId !== actor.userId) throw new NotFoundError("Chat session", { session_id: sessionId });
  return row;
}

export async function sessionIn(tx: Tx, sessionId: string): Promise<SessionRow | null> {
  const [row] = await tx.select().from(s).where(eq(s.id, sessionId)).limit(1);
  return row ?? null;
}

/** The session's most recent run, with its status. */
export async function latestRunIn(
  tx: Tx,
  sessionId: string,
): Promise<{ id: string; status: string; createdBy: string } | null> {
  const [row] = await tx
    .select({ id: r.id, status: r.status, createdBy: r.createdBy })
    .from(r)
    .where(eq(r.threadId, threadOfSession(sessionId)))
    .orderBy(desc(r.createdAt))
    .limit(1);
  return row ?? null;
}

export function agentRef(row: AgentRow): ChatAgentRef {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    avatar: row.avatar,
    domain: row.domain,
    workflow: row.workflow,
    defaultSafetyLevel: row.defaultSafetyLevel,
  };
}

export async function insertSessionIn(
  tx: Tx,
  actor: ChatActor,
  input: { agentId: string; title: string; at: Date; dataSourceId?: string },
): Promise<SessionRow> {
  const [row] = await tx
    .insert(s)
    .values({
      tenantId: actor.tenantId,
      userId: actor.userId,
      agentId: input.agentId,
      title: input.title,
      dataSourceId: input.dataSourceId ?? null,
      createdAt: input.at,
      updatedAt: input.at,
    })
    .returning();
  return row;
}

export async function insertMessageIn(
  tx: Tx,
  scope: TenantScope,
  input: {
    sessionId: string;
    role: "user" | "assistant";
    content: string;
    at: Date;
    sources?: SourceItem[];
    citations?: number[];
    metadata?: Record<string, unknown>;
  },
): Promise<string> {
  const [row] = await tx
    .insert(m)
    .values({
      tenantId: scope.tenantId,
      sessionId: input.sessionId,
      role: input.role,
      content: input.content,
      sources: input.sources ?? [],
      citations: input.citations ?? [],
      metadata: input.metadata ?? {},
      createdAt: input.at,
    })
    .returning({ id: m.id });
  return row.id;
}

/** The session's latest question: a retry answers it again instead of asking it twice. */
export async function lastUserMessageIn(tx: Tx, sessionId: string): Promise<{ id: string; content: string } | null> {
  const [row] = await tx
    .select({ id: m.id, content: m.content })
    .from(m)
    .where(and(eq(m.sessionId, sessionId), eq(m.role, "user")))
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(1);
  return row ?? null;
}

/** The assistant message a run already saved (a node re-run after a crash finds it). */
export async function assistantMessageOfRunIn(tx: Tx, sessionId: string, runId: string): Promise<string | null> {
  const [row] = await tx
    .select({ id: m.id })
    .from(m)
    .where(and(eq(m.sessionId, sessionId), eq(m.role, "assistant"), sql`${m.metadata}->>'runId' = ${runId}`))
    .limit(1);
  return row?.id ?? null;
}

/** Sets the review state of an assistant message (and its text, when a reviewer edited it). */
/**
 * Sets the review state of a run's assistant message in one statement; with `content` (a
 * reviewer's edit) the text is replaced and the agent's own text kept as `originalContent` (the
 * first one, if edited twice). False when the run saved no answer in the session.
 */
export async function updateAssistantReviewIn(
  tx: Tx,
  message: { sessionId: string; runId: string },
  review: ReviewState,
  content?: string,
): Promise<boolean> {
  const state = sql`${JSON.stringify(review)}::jsonb`;
  const updated = await tx
    .update(m)
    .set(
      content === undefined
        ? { metadata: sql`jsonb_set(${m.metadata}, '{review}', ${state})` }
        : {
            // SET reads the row as it was: the text being replaced is the original.
            metadata: sql`jsonb_set(${m.metadata}, '{review}', ${state} || jsonb_build_object('originalContent', coalesce(${m.metadata} #>> '{review,originalContent}', ${m.content})))`,
            content,
          },
    )
    .where(
      and(eq(m.sessionId, message.sessionId), eq(m.role, "assistant"), sql`${m.metadata}->>'runId' = ${message.runId}`),
    )
    .returning({ id: m.id });
  return updated.length > 0;
}

export async function messagesIn(tx: Tx, sessionId: string): Promise<ChatMessageView[]> {
  const rows = await tx
    .select()
    .from(m)
    .where(and(eq(m.sessionId, sessionId), sql`${m.role} in ('user', 'assistant')`))
    .orderBy(asc(m.createdAt), asc(m.id));
  return rows.map((row) => ({
    id: row.id,
    role: row.role as "user" | "assistant",
    content: row.content,
    sources: (row.sources ?? []) as SourceItem[],
    citations: (row.citations ?? []) as number[],
    metadata: (row.metadata ?? {}) as ChatMessageMetadata,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** The last `limit` user and assistant turns, oldest first. */
export async function recentTurnsIn(
  tx: Tx,
  sessionId: string,
  limit: number,
  before?: string,
): Promise<{ role: "user" | "assistant"; content: string }[]> {
  const rows = await tx
    .select({ role: m.role, content: m.content, id: m.id })
    .from(m)
    .where(and(eq(m.sessionId, sessionId), sql`${m.role} in ('user', 'assistant')`))
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(limit + 1);
  return rows
    .filter((row) => row.id !== before)
    .slice(0, limit)
    .reverse()
    .map((row) => ({ role: row.role as "user" | "assistant", content: row.content }));
}

/** `%word%` for ILIKE, its own wildcards matched literally. */
function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The caller's sessions, most recent first, keyset-paged on (updated_at, id); with `titleWords`,
 * only sessions whose title contains each of them.
 */
export async function sessionPageIn(
  tx: Tx,
  actor: ChatActor,
  after: { updatedAt: Date; id: string } | null,
  limit: number,
  titleWords: string[] = [],
): Promise<(ChatSessionListItem & { sortAt: Date })[]> {
  const titleMatch = titleWords.map((word) => sql`and s.title ilike ${containsPattern(word)}`);
  const result = await tx.execute(sql`
    select s.id, s.title, s.updated_at, a.id as agent_id, a.slug, a.name, a.avatar, a.domain,
           (select content from chat_messages cm
             where cm.session_id = s.id and cm.role in ('user', 'assistant')
             order by cm.created_at desc, cm.id desc limit 1) as last_message
      from chat_sessions s join agents a on a.id = s.agent_id
     where s.user_id = ${actor.userId}
       ${sql.join(titleMatch, sql` `)}
       ${after ? sql`and (s.updated_at, s.id) < (${after.updatedAt.toISOString()}::timestamptz, ${after.id}::uuid)` : sql``}
     order by s.updated_at desc, s.id desc
     limit ${limit + 1}`);
  return rowsOf<{
    id: string;
    title: string;
    updated_at: string | Date;
    agent_id: string;
    slug: string;
    name: string;
    avatar: string;
    domain: string;
    last_message: string | null;
  }>(result).map((row) => {
    const updatedAt = new Date(row.updated_at);
    return {
      id: row.id,
      title: row.title,
      agent: { id: row.agent_id, slug: row.slug, name: row.name, avatar: row.avatar, domain: row.domain },
      updatedAt: updatedAt.toISOString(),
      lastMessagePreview: row.last_message === null ? null : previewOf(row.last_message),
      sortAt: updatedAt,
    };
  });
}

export async function updateSessionIn(
  tx: Tx,
  sessionId: string,
  values: { title?: string; updatedAt?: Date; dataSourceId?: string },
): Promise<void> {
  if (values.title === undefined && values.updatedAt === undefined && values.dataSourceId === undefined) return;
  await tx.update(s).set(values).where(eq(s.id, sessionId));
}

export async function deleteSessionIn(tx: Tx, sessionId: string): Promise<void> {
  await tx.delete(m).where(eq(m.sessionId, sessionId));
  await tx.delete(s).where(eq(s.id, sessionId));
}
