import { Annotation, END, Send, START, StateGraph } from "@langchain/langgraph";
import type { TenantScope } from "@/lib/db";
import { createEngineWithSelection, type Passage } from "@/lib/engine";
import type { DataTouched } from "@/lib/trace/contract";
import { type FoundPassage, runTool } from "./tools";

/** What a specialist (L3) is handed: another expert of the catalog, the task, and its worker budget. */
export interface SpecialistInput {
  scope: TenantScope;
  task: string;
  expert: {
    id: string;
    name: string;
    domain: string;
    knowledgeDomains: string[];
    systemPrompt: string;
    model: string | null;
    temperature: number;
  };
  /**
   * The tools the reviewer authorised at checkpoint 3 (tools_authorized). A specialist searches
   * with knowledge_search only; without it, it calls nothing and says so.
   */
  toolsAuthorized: string[];
  /** How many L4 workers it may run at once (parallel_agent_limit, less what the run spent). */
  workerLimit: number;
}

export interface WorkerResult {
  domain: string;
  passages: FoundPassage[];
  /** Everything the worker's search read, cited or not. */
  touched: DataTouched[];
  error: string | null;
  durationMs: number;
}

export interface SpecialistResult {
  findings: string;
  /** The passages the findings cite as [n], in their numbering. */
  passages: FoundPassage[];
  citations: number[];
  confidence: number;
  workers: WorkerResult[];
  usage: { tokens: number; costUsd: number };
}

const SpecialistState = Annotation.Root({
  scope: Annotation<TenantScope>(),
  task: Annotation<string>(),
  expert: Annotation<SpecialistInput["expert"]>(),
  workerLimit: Annotation<number>(),
  domain: Annotation<string>(),
  workers: Annotation<WorkerResult[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  result: Annotation<SpecialistResult | null>({ reducer: (_a, b) => b, default: () => null }),
});
type S = typeof SpecialistState.State;

/** One L4 worker per knowledge domain of the specialist, up to its limit, all at once. */
const fanOut = (state: S) =>
  (state.expert.knowledgeDomains.length ? state.expert.knowledgeDomains : ["guide"])
    .slice(0, Math.max(1, state.workerLimit))
    .map((domain) => new Send("worker", { ...state, domain }));

async function worker(state: S) {
  const started = Date.now();
  try {
    const found = await runTool(
      "knowledge_search",
      { query: state.task },
      { scope: state.scope, knowledgeDomains: [state.domain], exactDomains: true },
    );
    return {
      workers: [
        {
          domain: state.domain,
          passages: found.passages.slice(0, 3),
          touched: found.touched ?? [],
          error: null,
          durationMs: Date.now() - started,
        },
      ],
    };
  } catch (error) {
    return {
      workers: [
        {
          domain: state.domain,
          passages: [],
          touched: [],
          error: error instanceof Error ? error.message.slice(0, 200) : "failed",
          durationMs: Date.now() - started,
        },
      ],
    };
  }
}

async function summarize(state: S) {
  const unique = new Map(state.workers.flatMap((w) => w.passages).map((p) => [p.chunkId, p]));
  const passages = [...unique.values()].sort((a, b) => b.score - a.score).slice(0, 6);
  const numbered: Passage[] = passages.map((p, i) => ({
    n: i + 1,
    chunkId: p.chunkId,
    documentId: p.documentId,
    title: p.title,
    section: null,
    page: null,
    text: p.text,
    score: p.score,
  }));
  const { engine } = createEngineWithSelection({
    agent: { model: state.expert.model, temperature: state.expert.temperature },
  });
  const answer = await engine.answer({
    question: state.task,
    agent: { name: state.expert.name, domain: state.expert.domain, systemPrompt: state.expert.systemPrompt },
    passages: numbered,
  }).result;
  const tokens = answer.usage ? answer.usage.inputTokens + answer.usage.outputTokens : 0;
  return {
    result: {
      findings: answer.text,
      passages,
      citations: answer.citations,
      confidence: answer.confidence,
      workers: state.workers,
      usage: { tokens, costUsd: answer.costUsd ?? 0 },
    },
  };
}

// Compiled once, without a checkpointer of its own: it runs inside the delegating node, which
// records what it did; a node that runs again after a crash runs the specialist again.
const graph = new StateGraph(SpecialistState)
  .addNode("worker", worker)
  .addNode("summarize", summarize)
  .addConditionalEdges(START, fanOut, ["worker"])
  .addEdge("worker", "summarize")
  .addEdge("summarize", END)
  .compile({ checkpointer: false });

/** Runs a specialist (L3) and its workers (L4) as a subgraph, and returns its cited findings. */
export async function runSpecialist(input: SpecialistInput, signal?: AbortSignal): Promise<SpecialistResult> {
  if (!input.toolsAuthorized.includes("knowledge_search")) {
    return {
      findings: `No search tool was authorised for this delegation, so ${input.expert.name} looked nothing up and has no findings.`,
      passages: [],
      citations: [],
      confidence: 0,
      workers: [],
      usage: { tokens: 0, costUsd: 0 },
    };
  }
  const out = await graph.invoke({ ...input, domain: "" }, { signal });
  if (!out.result) throw new Error("The specialist returned nothing.");
  return out.result;
}
