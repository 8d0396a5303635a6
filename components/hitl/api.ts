import { ApiError } from "@/components/ui/api";
import type { AnswerReviewContext } from "@/lib/chat/contract";
import type { DeciderView } from "@/lib/checkpoints/contract";
import type {
  AdapterInfo,
  HitlCaseView,
  HitlCommandResult,
  HitlEventView,
  HitlQueueItem,
  QueueCounts,
} from "@/lib/hitl/contract";

// The inbox's side of the /api/hitl contract. Types come from the core (type-only imports, so
// no server code reaches the bundle); refusals keep their code and details, because the inbox
// acts on them (ALREADY_TERMINAL names the decision that stands).

export type CaseState = HitlQueueItem["state"];
export type CasePriority = HitlQueueItem["priority"];

export interface CaseList {
  count: number;
  items: HitlQueueItem[];
  next_cursor: string | null;
}

export interface CaseDetailBody {
  case: HitlCaseView;
  history: HitlEventView[];
  /** What the case is about when that lives in Vigil (a chat answer under review); null otherwise. */
  context: AnswerReviewContext | null;
  /** Whether this person may decide the case (the separation-of-duties rule), and why not. */
  decider?: DeciderView;
}

export type CommandBody = HitlCommandResult;

export interface CountsBody {
  counts: QueueCounts;
}

export interface AdaptersBody {
  items: AdapterInfo[];
}

/** The decision a late decider is shown instead of an error (details.decision of ALREADY_TERMINAL). */
export interface StandingDecision {
  decision_outcome: "approved" | "rejected";
  actor_name: string;
  actor_role: string;
  notes: string;
  modifications: Record<string, unknown> | null;
  created_at_ms: number;
}

export class HitlApiError extends ApiError {
  /** For ALREADY_TERMINAL: the decision that won. */
  get standingDecision(): StandingDecision | null {
    if (this.code !== "ALREADY_TERMINAL") return null;
    const decision = (this.details as { decision?: StandingDecision | null } | undefined)?.decision;
    return decision ?? null;
  }
}

/** A request that never got an answer (offline, connection reset): safe to retry with the same request_id. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError;
}

export async function hitlFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await fetch(url, { ...init, headers, credentials: "same-origin" });
  const body = (await res.json().catch(() => ({}))) as {
    status?: string;
    code?: string;
    message?: string;
    details?: unknown;
  };
  if (res.status === 404 && body.status === "not_found") {
    throw new HitlApiError(404, "NOT_FOUND", "This case does not exist, or it belongs to another tenant.");
  }
  if (!res.ok) {
    throw new HitlApiError(
      res.status,
      body.code ?? "HTTP_ERROR",
      body.message ?? `Request failed (${res.status}).`,
      body.details,
    );
  }
  return body as T;
}

export function postJson<T>(url: string, body: unknown): Promise<T> {
  return hitlFetch<T>(url, { method: "POST", body: JSON.stringify(body) });
}

/** A POST that outlives the page (sent while it unloads); nobody reads its answer. */
export async function postWhileLeaving(url: string, body: unknown): Promise<void> {
  await fetch(url, {
    method: "POST",
    keepalive: true,
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** A fresh idempotency key (crypto.randomUUID needs a secure context; fall back to random bytes). */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
