import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { SourceItem } from "@/lib/chat";
import { emit } from "@/lib/runs";

/**
 * Sends the answer's sources: the `data-sources` part with every source so far (one part,
 * updated in place) and a `source-document` (knowledge base) or `source-url` (fallback) part
 * for each new one.
 */
export function emitSources(config: LangGraphRunnableConfig, all: SourceItem[], added: SourceItem[]): void {
  emit(config, { kind: "data", name: "sources", id: "sources", data: { items: all } });
  for (const s of added) {
    emit(config, {
      kind: "source",
      source: s.url
        ? { kind: "url", sourceId: s.chunkId, url: s.url, title: s.title }
        : { kind: "document", sourceId: s.chunkId, title: s.title, mediaType: "text/markdown" },
    });
  }
}
