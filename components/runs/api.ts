import { apiFetch } from "@/components/ui/api";
import type {
  AutonomousInput,
  AutonomousPublicState,
  EvidenceClaim,
  HierarchyNode,
  PlanStepStatus,
  SafetyLevel,
  TodoItem,
} from "@/lib/agents/contract";
import type { CheckpointPart, CheckpointTypeName, DeciderView } from "@/lib/checkpoints/contract";
import type { AgentCard } from "@/lib/experts/contract";
import type { RunListItem, RunStatus } from "@/lib/runs/contract";

// The Runs pages' side of /api/runs for autonomous runs. The agents' contract is read here
// only, so the rest of components/runs names its types through this file.

export { AUTONOMOUS_LIMITS, runSafetyLevelOf, SAFETY_LEVELS } from "@/lib/agents/contract";
export type {
  AutonomousPublicState,
  CheckpointPart,
  CheckpointTypeName,
  EvidenceClaim,
  HierarchyNode,
  PlanStepStatus,
  RunListItem,
  RunStatus,
  SafetyLevel,
  TodoItem,
};

export type RunOutcome = NonNullable<AutonomousPublicState["outcome"]>;

export interface RunPage {
  items: RunListItem[];
  nextCursor: string | null;
}

/** `GET /api/runs/{id}` for an autonomous run. */
export interface RunDetail {
  id: string;
  workflow: string;
  status: RunStatus;
  error: string | null;
  state: AutonomousPublicState;
  /** The checkpoint the run waits at, with its case and whether this viewer may decide it. */
  waitingOn: (CheckpointPart & { decider?: DeciderView }) | null;
  /** The last event of the run's stream: subscribing after it sends only what is new. */
  lastSeq: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface SteeringItem {
  seq: number;
  message: string;
  createdBy: string;
  createdAt: string;
  deliveredAt: number | null;
  addedSteps: string[];
}

export const RUNS_KEY = ["runs"] as const;
export const runsListKey = [...RUNS_KEY, "list"] as const;
/** Every query of one run (its state and its messages) starts with this key. */
export const runKey = (id: string) => [...RUNS_KEY, "run", id] as const;
export const steeringKey = (id: string) => [...runKey(id), "messages"] as const;

const runUrl = (id: string) => `/api/runs/${encodeURIComponent(id)}`;

export function fetchRunPage(cursor: string | null, limit = 20): Promise<RunPage> {
  const query = new URLSearchParams({ workflow: "autonomous", limit: String(limit) });
  if (cursor) query.set("cursor", cursor);
  return apiFetch<RunPage>(`/api/runs?${query}`);
}

export async function fetchRun(id: string): Promise<RunDetail> {
  const body = await apiFetch<{ run: RunDetail }>(runUrl(id));
  return body.run;
}

export async function startAutonomousRun(input: AutonomousInput): Promise<string> {
  const body = await apiFetch<{ runId: string }>("/api/runs", {
    method: "POST",
    body: JSON.stringify({ workflow: "autonomous", input }),
  });
  return body.runId;
}

export async function fetchSteering(id: string): Promise<SteeringItem[]> {
  const body = await apiFetch<{ items: SteeringItem[] }>(`${runUrl(id)}/messages`);
  return body.items;
}

export function sendSteering(id: string, message: string): Promise<unknown> {
  return apiFetch(`${runUrl(id)}/messages`, { method: "POST", body: JSON.stringify({ message }) });
}

export function streamUrl(id: string, after: number): string {
  return `${runUrl(id)}/stream?after=${after}`;
}

export async function fetchAgents(): Promise<AgentCard[]> {
  const body = await apiFetch<{ items: AgentCard[] }>("/api/agents");
  return body.items;
}
