// What crosses the wire about runs: the event log's entries, the custom data parts of the UI
// message stream and the message type both ends use. Client-safe: the server's stream writer and
// the browser's `useChat` import the same types, so the two cannot drift.
import type { InferUIMessageChunk, UIMessage } from "ai";
import type { AgentPart } from "@/lib/agents/contract";
import type { CheckpointPart } from "@/lib/checkpoints/contract";
import type { SearchHit } from "@/lib/rag/contract";
import type { DataTouched } from "@/lib/trace/contract";

export type StepStatus = "running" | "done" | "error";
export type RunStatus = "running" | "interrupted" | "completed" | "failed" | "cancelled";

export interface PendingInterrupt {
  id: string;
  node: string;
  value: unknown;
}

/** One entry of a run's event log; `seq` orders a run's events from 1 without gaps. */
export type RunEvent = { seq: number } & RunEventBody;

export type RunEventBody =
  | { type: "run-start"; payload: { runId: string; workflow: string } }
  | { type: "step"; payload: { node: string; status: StepStatus; message: string } }
  | { type: "text"; payload: { partId: string; delta: string } }
  | { type: "reasoning"; payload: { partId: string; delta: string } }
  | { type: "data"; payload: { name: DataPartName; id?: string; data: unknown } }
  | { type: "source"; payload: SourcePayload }
  | { type: "interrupt"; payload: { interrupts: PendingInterrupt[] } }
  | { type: "resume"; payload: { interruptId: string; actorId: string } }
  | { type: "status"; payload: { status: RunStatus; error?: string } }
  | { type: "finish"; payload: { metadata: Record<string, unknown> } }
  /**
   * Text and reasoning parts of an attempt that died with its process (a crash mid-answer):
   * the step runs again into parts of its own, so readers skip these and read the answer once.
   */
  | { type: "supersede"; payload: { partIds: string[] } };

export type RunEventType = RunEventBody["type"];

export type DataPartName =
  | "step"
  | "route"
  | "tool"
  | "checkpoint"
  | "todo"
  | "agent"
  | "interrupt"
  | "sources"
  | "sql"
  | "rephrasings";

export type SourcePayload =
  | { kind: "document"; sourceId: string; title: string; mediaType: string; filename?: string }
  | { kind: "url"; sourceId: string; url: string; title?: string };

/** Trace events a node reports itself (the executor adds run, tenant and node). */
export type NodeTraceType =
  | "hitl_response"
  | "llm_call"
  | "tool_invocation"
  | "tool_result"
  | "subagent_spawn"
  | "subagent_complete"
  | "cache_hit"
  | "cache_miss"
  | "constitutional_check"
  | "escalation"
  | "steering_message";

/** What a workflow node may send to the run's stream (and trace) through `config.writer`. */
export type NodeOutput =
  | { kind: "text"; delta: string }
  | {
      kind: "trace";
      eventType: NodeTraceType;
      durationMs?: number;
      payload?: Record<string, unknown>;
      /** The data the node read, by class: the trace writer marks PHI access from it. */
      touched?: readonly DataTouched[];
    }
  | { kind: "step"; message: string }
  | DataOutput
  | { kind: "source"; source: SourcePayload };

/**
 * A data part as a node writes it: its payload is the one the client's part of that name
 * reads (DataParts), checked where it is written rather than cast where it is read.
 */
export type DataOutput = {
  [K in DataPartName]: { kind: "data"; name: K; id?: string; data: DataParts[K] };
}[DataPartName];

/** The payloads of the custom data parts (DESIGN.md, Stream protocol). */
export type DataParts = {
  step: { node: string; status: StepStatus; message: string };
  route: { route: "rag" | "sql" | "general" | "research" | "autonomous" };
  tool: { tool: string; status: "start" | "end" | "error"; input?: unknown; output?: unknown };
  checkpoint: CheckpointPart;
  todo: { items: { id: string; task: string; status: string }[] };
  /** A node of an autonomous run's agent hierarchy, as it changes. */
  agent: AgentPart;
  interrupt: { interrupts: PendingInterrupt[] };
  sources: { items: SourceItem[] };
  /** The SQL analyst's query and its result (the design's `data-sql`). */
  sql: SqlResultPart;
  /** A declined data question: the words the analyst could not place, and phrasings it answers. */
  rephrasings: RephrasingsPart;
};

/**
 * The SQL analyst's decline, as data: the words of the question nothing in the source matched,
 * and questions it can answer instead (each was planned before it was offered), which the chat
 * shows as buttons that send the phrasing as the next message.
 */
export interface RephrasingsPart {
  unplaced: string[];
  phrasings: string[];
}

/** A cell of a SQL result as it crosses to the client: dates and big numbers arrive as text. */
export type SqlCell = string | number | boolean | null;

/**
 * The SQL analyst's answer data: the statement that ran, its result (at most the source's row
 * limit; `truncated` when there was more), how to label and chart it, and follow-up questions.
 */
export interface SqlResultPart {
  sql: string;
  columns: string[];
  rows: SqlCell[][];
  truncated: boolean;
  /** The data source it ran on. */
  source: { id: string; name: string };
  /** Columns that name a row (the display attributes' primary label), in order. */
  labelColumns: string[];
  /** The column holding the figure of a count or a measure; null for a plain list. */
  valueColumn: string | null;
  /** A bar chart of `y` over `x` when the result is an aggregate over a dimension. */
  chart: { x: string; y: string } | null;
  followups: string[];
  /** The plan in words ("Counting track rows where genre name is "Rock""); absent on answers saved before it. */
  interpretation?: string | null;
}

/**
 * One source of an answer, as the `data-sources` part and a saved chat message carry it: a
 * retrieved passage plus `n`, the number the answer cites it by (`[n]`). Fallback search results
 * carry synthetic ids (`pubmed:<pmid>`, `web:<hash>`) and their `url`.
 */
export interface SourceItem extends Omit<SearchHit, "dataClassification" | "evidenceLevel"> {
  n: number;
  /** Absent on answers saved before documents had a class, and on an autonomous run's sources. */
  dataClassification?: SearchHit["dataClassification"];
  /** Set for fallback search results: where the result lives. */
  url?: string;
}

/** A run as `GET /api/runs` lists it. */
export interface RunListItem {
  id: string;
  workflow: string;
  status: RunStatus;
  /** What the run works on, from its input: a goal, a message. */
  title: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** How a finished run ended, when its workflow says (an autonomous run's `{status, reason}`). */
  outcome: { status: string; reason: string | null } | null;
}

/** A human decision a run's answer is waiting on or went through. */
export interface ReviewState {
  caseId: string;
  status: string;
  /** The reviewer's open question, while the review needs the asker's clarification. */
  question?: string | null;
  /** A decision's reason (a rejection's, usually). */
  reason?: string | null;
  /** The answer as the agent wrote it, when a reviewer edited it. */
  originalContent?: string | null;
  /** False while a decision is made but not yet applied to the answer. */
  settled?: boolean;
}

/**
 * Message metadata on the stream: `{runId}` from the start chunk, `{status}` when the run settles,
 * and whatever the workflow's finish event adds (a chat answer: session, citations, confidence…).
 */
export interface RunMetadata {
  runId?: string;
  status?: RunStatus;
  sessionId?: string;
  citations?: number[];
  confidence?: number;
  engine?: string;
  model?: string;
  review?: ReviewState | null;
  /** Its asker stopped the answer (a chat's): the text is what had arrived by then. */
  stopped?: boolean;
}

/** The message a run streams, as the UI stream writer produces it and `useChat` reads it. */
export type RunUIMessage = UIMessage<RunMetadata, DataParts>;
export type RunUIChunk = InferUIMessageChunk<RunUIMessage>;
