import { expect } from "vitest";
import * as decisionRoute from "@/app/api/hitl/cases/[id]/decision/route";
import * as runRoute from "@/app/api/runs/[id]/route";
import * as runsRoute from "@/app/api/runs/route";
import type { AutonomousPublicState } from "@/lib/agents/contract";
import { executionSettled } from "@/lib/runs";
import { type HitlClient, REVIEWER, rid } from "../api-hitl/support";

/** The demo goal: a choice, two other experts' fields, and a calculation. */
export const DEMO_GOAL =
  "Should we file a 510(k) or request De Novo classification for our new glucose monitor? Check adverse event reporting with the pharmacovigilance expert and the cost per QALY with the health economist: 45000 / 0.9.";

export interface RunBody {
  id: string;
  status: string;
  error: string | null;
  pendingInterrupts: {
    id: string;
    value: { checkpoint_type?: string; checkpoint_number?: number; request?: Record<string, unknown> };
  }[];
  state: AutonomousPublicState;
  waitingOn: { type: string; number: number | null; caseId: string; request: Record<string, unknown> } | null;
}

export function autonomousApi(api: HitlClient) {
  async function start(email: string, input: Record<string, unknown>) {
    const res = await api.post(email, runsRoute.POST, "/api/runs", { workflow: "autonomous", input });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return res.body.runId as string;
  }

  async function run(email: string, runId: string): Promise<RunBody> {
    const res = await api.get(email, runRoute.GET, `/api/runs/${runId}`, { id: runId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.run as RunBody;
  }

  /** Waits for the run to stop (at a checkpoint or the end) and returns it. */
  async function stopped(email: string, runId: string, timeoutMs = 30_000): Promise<RunBody> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await executionSettled(runId);
      const body = await run(email, runId);
      if (body.status !== "running" || Date.now() > deadline) return body;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** The checkpoint the run waits at, with its case. */
  function waitingOn(body: RunBody): {
    type: string;
    number: number | null;
    caseId: string;
    request: Record<string, unknown>;
  } {
    expect(body.status, body.error ?? "").toBe("interrupted");
    expect(body.waitingOn).toBeTruthy();
    return body.waitingOn as NonNullable<RunBody["waitingOn"]>;
  }

  async function decide(
    caseId: string,
    decision: "approved" | "rejected",
    extra: Record<string, unknown> = {},
    email = REVIEWER,
  ) {
    const res = await api.post(
      email,
      decisionRoute.POST,
      `/api/hitl/cases/${caseId}/decision`,
      { request_id: rid("decide"), decision, ...extra },
      { id: caseId },
    );
    return res;
  }

  return { start, run, stopped, waitingOn, decide };
}
