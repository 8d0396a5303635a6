import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { searchKnowledge, searchScopeOf } from "@/lib/rag";
import { emit, runContextOf } from "@/lib/runs";
import { fallbackSearch } from "@/lib/search";
import { sourcesPerAnswer } from "../config";
import { documentsTouched, fallbackSources, knowledgeSources } from "../sources";
import type { AskExpertStateType } from "../state";
import { emitSources } from "./emit-sources";

/**
 * Searches the tenant's knowledge base in the agent's domains, and the user guide when the
 * question (or the one a follow-up continues) is about Vigil itself. When it finds nothing, the
 * configured fallback searchers are asked. Small talk searches nothing.
 */
export async function ragRetrieval(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  const { analysis, agent } = state;
  if (!analysis || !agent) throw new Error("analyze_query did not run");
  if (analysis.intent !== "question") {
    emitSources(config, [], []);
    return { sources: [], retrieval: "lexical" as const };
  }
  const query = analysis.searchQuery.trim() || state.message;
  emit(config, { kind: "step", message: "Searching the knowledge base" });
  const started = Date.now();
  const found = await searchKnowledge(scope, {
    query,
    k: sourcesPerAnswer(),
    domains: searchScopeOf(agent.knowledgeDomains, `${state.message}\n${query}`),
  });
  emit(config, {
    kind: "trace",
    eventType: "tool_result",
    durationMs: Date.now() - started,
    payload: { tool: "knowledge_base", query, hits: found.items.length, retrieval: found.retrieval },
    touched: documentsTouched(found.items),
  });
  if (found.items.length > 0) {
    const sources = knowledgeSources(found.items);
    emitSources(config, sources, sources);
    return { sources, retrieval: found.retrieval };
  }

  const fallback = await fallbackSearch(query, { signal: config.signal });
  if (fallback.searchers.length > 0) {
    emit(config, {
      kind: "step",
      message: `Nothing in the knowledge base; asking ${fallback.searchers.join(" and ")}`,
    });
    emit(config, {
      kind: "trace",
      eventType: "tool_result",
      payload: { tool: "fallback_search", query, hits: fallback.hits.length, failures: fallback.failures },
    });
  }
  const sources = fallbackSources(fallback.hits);
  emitSources(config, sources, sources);
  return {
    sources,
    // Fallback results are scored by rank on the fusion scale.
    retrieval: sources.length > 0 ? ("hybrid" as const) : ("lexical" as const),
    fallback:
      fallback.searchers.length > 0
        ? { searchers: fallback.searchers, failures: fallback.failures, hits: fallback.hits.length }
        : null,
  };
}
