"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
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

/**
 * A command sent from one required text box (an answer, a reason): the text, a problem when it
 * is sent empty (the box takes the focus), the command, and a retry that reuses its request_id.
 */
export function useTextCommand(
  caseId: string,
  missing: string,
  commandFor: (text: string) => CaseCommand,
  /** After the server recorded it (the box is cleared). */
  onDone?: () => void,
) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const command = useCaseCommand(caseId);
  const box = useRef<HTMLTextAreaElement>(null);

  function send(next: CaseCommand) {
    if (command.isPending) return;
    setProblem(null);
    command.mutate(next, {
      onSuccess: () => {
        setText("");
        onDone?.();
      },
    });
  }

  function submit() {
    if (!text.trim()) {
      setProblem(missing);
      box.current?.focus();
      return;
    }
    send(commandFor(text.trim()));
  }

  const retry = command.variables ? () => send(command.variables as CaseCommand) : undefined;
  return { text, setText, problem, box, command, submit, retry };
}
