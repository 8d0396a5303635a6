"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type CommandBody, isNetworkFailure, postJson } from "./api";

export type CaseCommandPath = "decision" | "clarification-request" | "clarification" | "supersede";

export interface CaseCommand {
  path: CaseCommandPath;
  /** Includes the request_id, minted once per click: automatic retries and "Try again" reuse it. */
  body: { request_id: string } & Record<string, unknown>;
}

export function commandUrl(caseId: string, path: CaseCommandPath): string {
  return `/api/hitl/cases/${encodeURIComponent(caseId)}/${path}`;
}

/** Sends one command on a case; the queue, counts and case refresh whatever the outcome. */
export function useCaseCommand(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation<CommandBody, Error, CaseCommand>({
    mutationFn: ({ path, body }) => postJson<CommandBody>(commandUrl(caseId, path), body),
    // Only a request that never got an answer is retried, with the same request_id: the server
    // answers a duplicate with the first result, so a retry can never decide twice.
    retry: (failures, error) => isNetworkFailure(error) && failures < 3,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["hitl"] }),
  });
}
