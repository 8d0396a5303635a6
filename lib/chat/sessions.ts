import { usableDataSource } from "@/lib/datasources";
import { decodeCursor, encodeCursor, keysetParts, withTenant } from "@/lib/db";
import { DomainError, errors, NotFoundError } from "@/lib/errors";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { beginRunIn, findWorkflow } from "@/lib/runs";
import type { ChatSessionDetail, ChatSessionPage } from "./contract";
import {
  MAX_MESSAGE_BYTES,
  MAX_TITLE_CHARS,
  SESSION_PAGE_DEFAULT,
  SESSION_PAGE_MAX,
  SESSION_SEARCH_MAX_CHARS,
  threadOfSession,
  titleFromMessage,
} from "./limits";
import {
  agentByIdIn,
  agentIn,
  agentRef,
  deleteSessionIn,
  insertMessageIn,
  insertSessionIn,
  lastUserMessageIn,
  latestRunIn,
  messagesIn,
  ownSessionIn,
  sessionPageIn,
  updateSessionIn,
} from "./store";
import type { ChatActor } from "./types";

/** A title search looks for at most this many words. */
const MAX_SEARCH_WORDS = 8;

/** The workflow a chat turn runs. */
export const CHAT_WORKFLOW = "ask-expert";
const AUTONOMOUS_WORKFLOW = "autonomous";

export interface ChatTurnInput {
  sessionId?: string;
  /** The agent's id or slug. */
  agentId: string;
  message: string;
  /** Answer the session's last question again (it is not stored a second time). */
  retry?: boolean;
  mode?: "ask" | "autonomous";
  safetyLevel?: "strict" | "balanced" | "permissive";
  /** The data source the Data Analyst asks from now on in this consultation. */
  dataSourceId?: string;
}

export interface ChatTurn {
  sessionId: string;
  runId: string;
  threadId: string;
  userMessageId: string;
  /** True when this turn opened a new session. */
  created: boolean;
}

/**
 * Starts one turn of a consultation: checks the agent and the session, saves the user's message
 * (opening a session titled after it when none is given) and the `ask-expert` run on the
 * session's thread in one transaction, then launches the run. Nothing is written when any check
 * fails.
 */
export async function startChatTurn(actor: ChatActor, input: ChatTurnInput): Promise<ChatTurn> {
  const message = input.message.trim();
  if (!message) throw errors.invalidField("message", "The message is empty.");
  if (Buffer.byteLength(input.message, "utf8") > MAX_MESSAGE_BYTES) {
    throw errors.invalidField("message", `The message is longer than ${MAX_MESSAGE_BYTES} bytes.`);
  }
  // The tenant's and enabled, or refused before anything is written.
  if (input.dataSourceId) await usableDataSource(actor, input.dataSourceId);
  const turn = await withTenant(actor, async (tx) => {
    const agent = await agentIn(tx, input.agentId);
    if (!agent) throw new NotFoundError("Agent", { agent_id: input.agentId });
    const at = new Date();
    let sessionId = input.sessionId;
    if (sessionId) {
      const session = await ownSessionIn(tx, actor, sessionId);
      if (session.agentId !== agent.id) {
        throw errors.conflict("CHAT_AGENT_MISMATCH", "This session is a consultation with another agent.", {
          session_agent_id: session.agentId,
        });
      }
      const latest = await latestRunIn(tx, sessionId);
      if (latest?.status === "running") throw chatBusy(latest.id);
      if (input.dataSourceId && input.dataSourceId !== session.dataSourceId) {
        await updateSessionIn(tx, sessionId, { dataSourceId: input.dataSourceId });
      }
    } else {
      const title = titleFromMessage(message);
      sessionId = (await insertSessionIn(tx, actor, { agentId: agent.id, title, at, dataSourceId: input.dataSourceId }))
        .id;
    }
    const previous = input.retry && input.sessionId ? await lastUserMessageIn(tx, sessionId) : null;
    const userMessageId =
      previous && previous.content === message
        ? previous.id
        : await insertMessageIn(tx, actor, { sessionId, role: "user", content: message, at });
    const created = !input.sessionId;
    // The run is written with the message: a turn sent at the same moment that started its run
    // after our check makes the run's insert fail, and this turn then keeps nothing.
    // An autonomous turn runs on a thread of its own and leaves its answer in the session.
    const run = await onFreeSession(() =>
      input.mode === "autonomous"
        ? beginRunIn(tx, actor, {
            workflow: AUTONOMOUS_WORKFLOW,
            input: {
              goal: message,
              agentId: agent.id,
              sessionId,
              ...(input.safetyLevel ? { safetyLevel: input.safetyLevel } : {}),
            },
          })
        : beginRunIn(tx, actor, {
            // An expert with a chat workflow of its own (the Data Analyst) answers with it.
            workflow: agent.workflow && findWorkflow(agent.workflow)?.answersChat ? agent.workflow : CHAT_WORKFLOW,
            input: { message, userMessageId, firstTurn: created },
            threadId: threadOfSession(sessionId),
          }),
    );
    return { sessionId, userMessageId, created, run };
  });
  const { run, ...saved } = turn;
  run.launch();
  return { ...saved, runId: run.runId, threadId: run.threadId };
}

async function onFreeSession<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.code === "THREAD_BUSY") throw chatBusy();
    throw error;
  }
}

function chatBusy(runId?: string): DomainError {
  return errors.conflict(
    "CHAT_BUSY",
    "The agent is still answering in this session; wait or stop it first.",
    runId ? { run_id: runId } : {},
  );
}

/**
 * The caller's own sessions in the active tenant, most recent first; with `q`, only those whose
 * title contains every word of it (case-insensitive), paged the same way.
 */
export async function listChatSessions(
  actor: ChatActor,
  options: { cursor?: string; limit?: number; q?: string } = {},
): Promise<ChatSessionPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? SESSION_PAGE_DEFAULT), 1), SESSION_PAGE_MAX);
  const after = options.cursor ? decodeSessionCursor(options.cursor) : null;
  const q = options.q?.trim() ?? "";
  if (q.length > SESSION_SEARCH_MAX_CHARS) {
    throw errors.invalidField("q", `A search has at most ${SESSION_SEARCH_MAX_CHARS} characters.`);
  }
  const words = q.split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  const rows = await withTenant(actor, (tx) => sessionPageIn(tx, actor, after, limit, words));
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(({ sortAt: _sort, ...item }) => item),
    nextCursor: rows.length > limit && last ? encodeSessionCursor(last.sortAt, last.id) : null,
  };
}

export async function getChatSession(actor: ChatActor, sessionId: string): Promise<ChatSessionDetail> {
  return withTenant(actor, async (tx) => {
    const session = await ownSessionIn(tx, actor, sessionId);
    const agent = await agentByIdIn(tx, session.agentId);
    if (!agent) throw new NotFoundError("Chat session", { session_id: sessionId });
    const [messages, latest] = await Promise.all([messagesIn(tx, session.id), latestRunIn(tx, session.id)]);
    return {
      session: {
        id: session.id,
        title: session.title,
        agent: { ...agentRef(agent), description: agent.description },
        createdAt: session.createdAt.toISOString(),
        updatedAt: session.updatedAt.toISOString(),
        dataSourceId: session.dataSourceId,
      },
      messages,
      activeRun: latest?.status === "running" ? { runId: latest.id, status: "running" } : null,
    };
  });
}

export async function renameChatSession(
  actor: ChatActor,
  sessionId: string,
  title: string,
): Promise<{ id: string; title: string }> {
  const clean = title.replace(/\s+/g, " ").trim();
  if (clean.length < 1 || clean.length > MAX_TITLE_CHARS) {
    throw errors.invalidField("title", `A title has 1 to ${MAX_TITLE_CHARS} characters.`);
  }
  return withTenant(actor, async (tx) => {
    const session = await ownSessionIn(tx, actor, sessionId);
    await updateSessionIn(tx, session.id, { title: clean });
    return { id: session.id, title: clean };
  });
}

/** Deletes a session, its messages and its conversation memory; refused while a run is active. */
export async function deleteChatSession(actor: ChatActor, sessionId: string): Promise<{ id: string }> {
  const id = await withTenant(actor, async (tx) => {
    const session = await ownSessionIn(tx, actor, sessionId);
    const latest = await latestRunIn(tx, session.id);
    if (latest?.status === "running") {
      throw errors.conflict("CHAT_BUSY", "The agent is still answering in this session; stop it first.", {
        run_id: latest.id,
      });
    }
    await deleteSessionIn(tx, session.id);
    return session.id;
  });
  await new DrizzleCheckpointSaver({ tenantId: actor.tenantId }).deleteThread(threadOfSession(id));
  return { id };
}

function encodeSessionCursor(at: Date, id: string): string {
  return encodeCursor(at.getTime(), id);
}

function decodeSessionCursor(cursor: string): { updatedAt: Date; id: string } {
  const [ms, id] = decodeCursor(cursor, keysetParts.integer, keysetParts.uuid);
  return { updatedAt: new Date(ms), id };
}
