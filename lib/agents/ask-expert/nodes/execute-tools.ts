import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { searchKnowledge, searchScopeOf } from "@/lib/rag";
import { emit, runContextOf } from "@/lib/runs";
import { documentsTouched, knowledgeSources } from "../sources";
import type { AskExpertStateType } from "../state";
import { emitSources } from "./emit-sources";

/** The tools this workflow can run for an agent. */
export const CHAT_TOOLS = ["knowledge_search"] as const;
const EXTRA_PASSAGES = 3;

export function hasChatTools(state: AskExpertStateType): boolean {
  return (
    state.analysis?.intent === "question" &&
    (state.agent?.tools ?? []).some((t) => (CHAT_TOOLS as readonly string[]).includes(t))
  );
}

/**
 * `knowledge_search`: a second retrieval pass with the question as the user wrote it (the first
 * pass used the analysed query), adding up to three passages the first pass did not find.
 * Only knowledge-base answers are widened; fallback results stay as they are.
 */
export async function executeTools(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const agent = state.agent;
  if (!agent?.tools.includes("knowledge_search")) return {};
  const input = { query: state.message, k: EXTRA_PASSAGES * 2 };
  emit(config, {
    kind: "data",
    name: "tool",
    id: "knowledge_search",
    data: { tool: "knowledge_search", status: "start", input },
  });
  emit(config, { kind: "trace", eventType: "tool_invocation", payload: { tool: "knowledge_search", input } });
  const started = Date.now();
  try {
    const found = await searchKnowledge(scope, {
      ...input,
      domains: searchScopeOf(agent.knowledgeDomains, state.message),
    });
    const known = new Set(state.sources.map((s) => s.chunkId));
    const fromFallback = state.sources.some((s) => s.url);
    const fresh = fromFallback ? [] : found.items.filter((hit) => !known.has(hit.chunkId)).slice(0, EXTRA_PASSAGES);
    // Scores of two passes are on one scale only when both ranked the same way.
    const comparable = state.sources.length === 0 || found.retrieval === state.retrieval;
    const added = comparable ? knowledgeSources(fresh, state.sources.length + 1) : [];
    const output = { found: found.items.length, added: added.length };
    emit(config, {
      kind: "data",
      name: "tool",
      id: "knowledge_search",
      data: { tool: "knowledge_search", status: "end", input, output },
    });
    emit(config, {
      kind: "trace",
      eventType: "tool_result",
      durationMs: Date.now() - started,
      payload: { tool: "knowledge_search", ...output },
      touched: documentsTouched(found.items),
    });
    if (added.length === 0) return {};
    const sources = [...state.sources, ...added];
    emitSources(config, sources, added);
    return { sources, retrieval: found.retrieval };
  } catch (error) {
    if (config.signal?.aborted) throw error;
    emit(config, {
      kind: "data",
      name: "tool",
      id: "knowledge_search",
      data: { tool: "knowledge_search", status: "error", input },
    });
    emit(config, {
      kind: "trace",
      eventType: "tool_result",
      durationMs: Date.now() - started,
      payload: { tool: "knowledge_search", error: error instanceof Error ? error.message.slice(0, 300) : "failed" },
    });
    return {};
  }
}
