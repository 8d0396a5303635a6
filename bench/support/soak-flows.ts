import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { RouteStats } from "./route-stats";

// What the soak benchmark asks of the server, over HTTP with API keys, each request timed and
// any failure recorded under its route.

export const ROUTES = {
  chat: "POST /api/chat (stream read to its end)",
  startRun: "POST /api/runs (demo-echo)",
  readRun: "GET /api/runs/{id}",
  runCase: "GET /api/hitl/cases?ref_type=run…",
  decision: "POST /api/hitl/cases/{id}/decision",
  run: "demo-echo run: POST → completed",
  search: "GET /api/knowledge/search",
  inbox: "GET /api/hitl/queue",
  health: "GET /api/health",
  upload: "POST /api/knowledge/documents (~50 KB)",
} as const;

/** A request, or a run, that takes longer counts as failed. */
export const TIMEOUT_MS = 60_000;
const POLL_MS = 300;
const UPLOAD_BYTES = 50 * 1024;

/** Questions about the seeded knowledge, with the agent that covers each. */
const QUESTIONS: [agentId: string, message: string][] = [
  ["fda-regulatory", "What is a 510(k) premarket notification?"],
  ["fda-regulatory", "How does a De Novo classification request work in practice?"],
  ["clinical-trial-designer", "Can you explain adaptive trial designs?"],
  ["clinical-trial-designer", "What are the key requirements for sample size calculation?"],
  ["health-economist", "What is the incremental cost-effectiveness ratio?"],
  ["pharmacovigilance", "How does signal detection work in practice?"],
];
const SEARCHES = [
  "510(k) substantial equivalence",
  "breakthrough therapy designation",
  "randomisation and blinding",
  "non-inferiority margin",
  "quality-adjusted life years",
  "budget impact analysis",
  "individual case safety reports",
  "periodic safety update report",
];
const WORDS =
  "batch release deviation corrective preventive action audit supplier qualification validation protocol sampling plan acceptance criteria stability study shelf life labelling traceability calibration equipment cleaning environmental monitoring change control risk assessment training record complaint trend review annual product quality".split(
    " ",
  );

export interface SoakKeys {
  /** Member keys, used in turn (the per-person cap on working runs counts each key apart). */
  members: string[];
  reviewer: string;
  admin: string;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Why a fetch threw: the socket's error code, a timeout, or the message. */
function networkReason(error: unknown): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return `no answer within ${TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return `network: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
}

function statusReason(status: number, text: string): string {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === "string" ? `${status} ${code}` : String(status);
  } catch {
    return String(status);
  }
}

export class SoakClient {
  private turn = 0;
  private uploads = 0;

  constructor(
    private readonly base: string,
    private readonly keys: SoakKeys,
  ) {}

  private member(): string {
    this.turn = (this.turn + 1) % this.keys.members.length;
    return this.keys.members[this.turn];
  }

  /** One timed request: its JSON body when the status is one of `expected`, else null (recorded). */
  private async call(
    stats: RouteStats,
    route: string,
    path: string,
    options: { key?: string; json?: unknown; form?: FormData },
    expected: number[] = [200],
  ): Promise<Answer | null> {
    const headers: Record<string, string> = {};
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.json !== undefined) headers["content-type"] = "application/json";
    const body = options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
    const t0 = performance.now();
    try {
      const res = await fetch(`${this.base}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers,
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await res.text();
      const ms = performance.now() - t0;
      if (!expected.includes(res.status)) {
        stats.error(route, statusReason(res.status, text));
        return null;
      }
      stats.ok(route, ms);
      return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
    } catch (error) {
      stats.error(route, networkReason(error));
      return null;
    }
  }

  /** A question to an expert, its answer stream read to `[DONE]`. */
  async chat(stats: RouteStats, index: number): Promise<void> {
    const [agentId, message] = QUESTIONS[index % QUESTIONS.length];
    const t0 = performance.now();
    try {
      const res = await fetch(`${this.base}/api/chat`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.member()}`, "content-type": "application/json" },
        body: JSON.stringify({ agentId, message }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (res.status !== 200 || !res.body) {
        stats.error(ROUTES.chat, statusReason(res.status, await res.text()));
        return;
      }
      const failure = await readUiStream(res.body);
      if (failure) stats.error(ROUTES.chat, failure);
      else stats.ok(ROUTES.chat, performance.now() - t0);
    } catch (error) {
      stats.error(ROUTES.chat, networkReason(error));
    }
  }

  /**
   * A demo-echo run that waits for approval, followed to its end: read until interrupted, its
   * case found in the reviewer's inbox, approved, read until completed. A failed request ends
   * the flow (recorded under its route); a run that does not complete in time, or ends any
   * other way, is recorded under the run. Returns false when a request failed.
   */
  async run(stats: RouteStats, index: number): Promise<boolean> {
    const key = this.member();
    const t0 = performance.now();
    const deadline = t0 + TIMEOUT_MS;
    const started = await this.call(
      stats,
      ROUTES.startRun,
      "/api/runs",
      { key, json: { workflow: "demo-echo", input: { message: `soak run ${index}`, requireApproval: true } } },
      [202],
    );
    if (!started) return false;
    const runId = started.body.runId as string;
    const stopped = await this.settle(stats, key, runId, (s) => s !== "running", deadline);
    if (stopped === null) return false;
    if (stopped !== "interrupted") {
      stats.error(
        ROUTES.run,
        stopped === "timeout" ? "not at its checkpoint within 60 s" : `${stopped} before its checkpoint`,
      );
      return true;
    }
    let caseId: string | undefined;
    while (!caseId) {
      const listed = await this.call(
        stats,
        ROUTES.runCase,
        `/api/hitl/cases?ref_type=run&ref_value=${runId}&state=pending&limit=10`,
        { key: this.keys.reviewer },
      );
      if (!listed) return false;
      caseId = (listed.body.items as { id: string }[])[0]?.id;
      if (caseId) break;
      if (performance.now() > deadline) {
        stats.error(ROUTES.run, "its case was never listed as pending");
        return true;
      }
      await sleep(POLL_MS);
    }
    const decided = await this.call(stats, ROUTES.decision, `/api/hitl/cases/${caseId}/decision`, {
      key: this.keys.reviewer,
      json: { request_id: `soak-${caseId}`, decision: "approved" },
    });
    if (!decided) return false;
    const resume = (decided.body.linkedRun as { resume?: string } | undefined)?.resume;
    if (resume !== "resumed") {
      stats.error(ROUTES.run, `the decision did not resume it (${resume ?? "no linked run"})`);
      return true;
    }
    const ended = await this.settle(stats, key, runId, (s) => !["running", "interrupted"].includes(s), deadline);
    if (ended === null) return false;
    if (ended === "completed") stats.ok(ROUTES.run, performance.now() - t0);
    else stats.error(ROUTES.run, ended === "timeout" ? "not completed within 60 s" : `ended ${ended}`);
    return true;
  }

  /** Reads the run until its status passes `done`: the status, "timeout", or null if a read failed. */
  private async settle(
    stats: RouteStats,
    key: string,
    runId: string,
    done: (status: string) => boolean,
    deadline: number,
  ): Promise<string | null> {
    for (;;) {
      const read = await this.call(stats, ROUTES.readRun, `/api/runs/${runId}`, { key });
      if (!read) return null;
      const status = (read.body.run as { status: string }).status;
      if (done(status)) return status;
      if (performance.now() > deadline) return "timeout";
      await sleep(POLL_MS);
    }
  }

  async search(stats: RouteStats, index: number): Promise<void> {
    const q = encodeURIComponent(SEARCHES[index % SEARCHES.length]);
    await this.call(stats, ROUTES.search, `/api/knowledge/search?q=${q}`, { key: this.member() });
  }

  async inbox(stats: RouteStats): Promise<void> {
    await this.call(stats, ROUTES.inbox, "/api/hitl/queue?limit=25", { key: this.keys.reviewer });
  }

  async health(stats: RouteStats): Promise<void> {
    await this.call(stats, ROUTES.health, "/api/health", {});
  }

  /** A new Markdown document of about 50 KB (its text unique), uploaded by the admin. */
  async upload(stats: RouteStats): Promise<void> {
    const n = ++this.uploads;
    const markdown = soakDocument(n);
    const form = new FormData();
    form.set("file", new File([markdown], `soak-${n}.md`, { type: "text/markdown" }));
    form.set("domains", "soak");
    form.set("title", `Soak document ${n}`);
    await this.call(stats, ROUTES.upload, "/api/knowledge/documents", { key: this.keys.admin, form }, [201]);
  }
}

/**
 * Reads a run's UI message stream (SSE) to its end: null when it ended with `[DONE]` and no
 * error chunk, else what was wrong.
 */
async function readUiStream(body: ReadableStream<Uint8Array>): Promise<string | null> {
  const decoder = new TextDecoder();
  let buffer = "";
  let done = false;
  let failure: string | null = null;
  const reader = body.getReader();
  for (;;) {
    const { done: ended, value } = await reader.read();
    if (ended) break;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      if (data === "[DONE]") done = true;
      else if (data && (JSON.parse(data) as { type?: string }).type === "error")
        failure ??= "an error chunk in the stream";
    }
  }
  return failure ?? (done ? null : "the stream ended without [DONE]");
}

/** Generated Markdown of about UPLOAD_BYTES, different for every `n`. */
function soakDocument(n: number): string {
  const token = `${n}-${randomBytes(6).toString("hex")}`;
  const parts = [`# Soak document ${token}\n`];
  let size = parts[0].length;
  for (let section = 1; size < UPLOAD_BYTES; section++) {
    const words = Array.from({ length: 120 }, () => WORDS[randomBytes(1)[0] % WORDS.length]);
    const text = `## Section ${section} of ${token}\n\n${words.join(" ")}.\n`;
    parts.push(text);
    size += text.length;
  }
  return parts.join("\n");
}
