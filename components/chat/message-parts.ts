import type { ChatMessage, SourceItem } from "@/lib/chat/contract";
import type { DataParts, SqlResultPart } from "@/lib/runs/contract";
import type { WebSource } from "./SourcesPanel";

export type Step = DataParts["step"];

/** The visible answer: all text parts, in order. */
export function answerText(message: ChatMessage): string {
  return message.parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("\n\n");
}

export function reasoningText(message: ChatMessage): string {
  return message.parts
    .filter((p) => p.type === "reasoning")
    .map((p) => p.text)
    .join("\n");
}

/** The passages retrieved for the answer (the latest `data-sources` part wins). */
export function sourcesOf(message: ChatMessage): SourceItem[] {
  let items: SourceItem[] = [];
  for (const part of message.parts) {
    if (part.type === "data-sources") items = (part.data as DataParts["sources"]).items ?? [];
  }
  return items;
}

/**
 * The SQL analyst's result for the answer (the latest `data-sql` part wins), or null. A part
 * without its columns and rows is skipped: the table has nothing to draw from it.
 */
export function sqlResultOf(message: ChatMessage): SqlResultPart | null {
  let result: SqlResultPart | null = null;
  for (const part of message.parts) {
    if (part.type !== "data-sql") continue;
    const data = part.data as Partial<SqlResultPart> | undefined;
    if (data && Array.isArray(data.columns) && Array.isArray(data.rows)) result = data as SqlResultPart;
  }
  return result;
}

/** A declined SQL question's phrasings the analyst answers (the `data-rephrasings` part). */
export function rephrasingsOf(message: ChatMessage): string[] {
  for (const part of message.parts) {
    if (part.type !== "data-rephrasings") continue;
    const data = part.data as { phrasings?: unknown } | undefined;
    if (data && Array.isArray(data.phrasings)) return data.phrasings.filter((p): p is string => typeof p === "string");
  }
  return [];
}

export function webSourcesOf(message: ChatMessage): WebSource[] {
  const out: WebSource[] = [];
  for (const part of message.parts) {
    if (part.type === "source-url") out.push({ sourceId: part.sourceId, url: part.url, title: part.title });
  }
  return out;
}

export function stepsOf(message: ChatMessage): Step[] {
  const steps: Step[] = [];
  for (const part of message.parts) if (part.type === "data-step") steps.push(part.data as Step);
  return steps;
}

/** The tools the answer used, by name, once each (live only: a stored answer keeps no tool parts). */
export function toolsOf(message: ChatMessage): string[] {
  const names = new Set<string>();
  for (const part of message.parts) {
    if (part.type !== "data-tool") continue;
    const tool = (part.data as { tool?: unknown }).tool;
    if (typeof tool === "string") names.add(tool.replaceAll("_", " "));
  }
  return [...names];
}

/** The step to name in the thinking indicator: the latest one still running, else the latest. */
export function currentStep(message: ChatMessage | undefined): Step | undefined {
  if (!message) return undefined;
  const steps = stepsOf(message);
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i].status === "running") return steps[i];
  return steps.at(-1);
}

export function citedNumbers(message: ChatMessage, text: string): number[] {
  const fromMetadata = message.metadata?.citations;
  if (fromMetadata && fromMetadata.length > 0) return fromMetadata;
  const found = new Set<number>();
  for (const m of text.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)) {
    for (const n of m[1].split(",")) found.add(Number(n.trim()));
  }
  return [...found];
}
