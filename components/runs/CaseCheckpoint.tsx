"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { TimeoutBadge } from "@/components/hitl/Badges";
import { ApiError } from "@/components/ui/api";
import { CHECKPOINT_TYPE_NAMES, type CheckpointTypeName } from "@/lib/checkpoints/contract";
import { fetchRun, runKey } from "./api";
import { CheckpointRequestView } from "./CheckpointRequestView";

/** Whether a case's payload is a run checkpoint's request (a checkpoint type's adapter, opened for a run). */
export function isRunCheckpoint(adapter: string, runId: string | null): adapter is CheckpointTypeName {
  return runId !== null && (CHECKPOINT_TYPE_NAMES as readonly string[]).includes(adapter);
}

/**
 * A run checkpoint's case in the inbox, laid out as the run page lays it out (the same
 * CheckpointRequestView): the plan as steps, the candidates side by side with their scores,
 * options with their evidence, a tool call with its arguments, the answer with its sources. The
 * run is read for what the request alone lacks (its goal, the chosen candidate, the sources) and
 * for when the checkpoint times out.
 */
export function CaseCheckpoint({
  caseId,
  type,
  request,
  runId,
}: {
  caseId: string;
  type: CheckpointTypeName;
  request: Record<string, unknown>;
  runId: string;
}) {
  const { data: run } = useQuery({
    queryKey: runKey(runId),
    queryFn: () => fetchRun(runId),
    refetchInterval: (q) => (q.state.data?.status === "interrupted" ? 5_000 : false),
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
  });
  const autonomous = run?.workflow === "autonomous" ? run : null;
  const waiting = run?.waitingOn?.caseId === caseId ? run.waitingOn : null;
  return (
    <section className="space-y-3" data-testid="case-checkpoint" data-checkpoint-type={type}>
      {(autonomous || waiting) && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {waiting && (
            <TimeoutBadge
              expiresAt={waiting.expiresAt ? Date.parse(waiting.expiresAt) : null}
              paused={waiting.caseState === "needs_clarification"}
              onTimeout={waiting.onTimeout}
            />
          )}
          {autonomous?.state.goal && (
            <span className="min-w-0 [overflow-wrap:anywhere]">
              <span className="text-slate-500 dark:text-slate-400">Run goal: </span>
              <Link className="underline" href={`/runs/${encodeURIComponent(runId)}`} data-testid="case-run-goal">
                {autonomous.state.goal}
              </Link>
            </span>
          )}
        </div>
      )}
      <CheckpointRequestView checkpoint={{ type, request }} state={autonomous?.state ?? null} />
    </section>
  );
}
