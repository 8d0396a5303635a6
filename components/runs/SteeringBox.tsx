"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/Button";
import { Textarea } from "@/components/ui/Input";
import { AUTONOMOUS_LIMITS, fetchSteering, sendSteering, steeringKey, type TodoItem } from "./api";
import { formatWhen } from "./format";

/**
 * Steering: the run's owner tells the working expert something; it reaches the expert at its
 * next step and may add steps to the plan. `canSend` while the run still works.
 */
export function SteeringBox({
  runId,
  todo,
  canSend,
  version,
  onSent,
}: {
  runId: string;
  todo: TodoItem[];
  canSend: boolean;
  /** Changes whenever the run does: a message may have reached the expert since. */
  version: number;
  onSent: () => void;
}) {
  const id = useId();
  const [text, setText] = useState("");
  const messages = useQuery({ queryKey: steeringKey(runId), queryFn: () => fetchSteering(runId) });
  const { refetch } = messages;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is what asks for the refetch
  useEffect(() => {
    void refetch();
  }, [version, refetch]);
  const send = useMutation({
    mutationFn: (message: string) => sendSteering(runId, message),
    onSuccess: () => {
      setText("");
      onSent();
    },
  });
  const stepOf = (stepId: string) => todo.find((s) => s.id === stepId)?.description ?? stepId;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim() || send.isPending) return;
    send.mutate(text.trim());
  }

  const items = messages.data ?? [];
  return (
    <div className="space-y-3">
      {items.length > 0 && (
        <ol className="space-y-2" data-testid="steering-messages">
          {items.map((item) => (
            <li
              key={item.seq}
              data-testid="steering-message"
              data-delivered={item.deliveredAt !== null}
              className="rounded-md border border-slate-200 p-2 text-sm dark:border-slate-700"
            >
              <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{item.message}</p>
              <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                {formatWhen(item.createdAt)} ·{" "}
                {item.deliveredAt === null
                  ? "waiting for the expert's next step"
                  : `read by the expert before iteration ${item.deliveredAt + 1}`}
              </p>
              {item.addedSteps.length > 0 && (
                <ul className="mt-1 list-disc pl-5 text-xs">
                  {item.addedSteps.map((stepId) => (
                    <li key={stepId} className="[overflow-wrap:anywhere]">
                      Added: {stepOf(stepId)}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      {canSend && (
        <form onSubmit={submit} className="space-y-2">
          <label htmlFor={`${id}-message`} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
            Message to the expert
          </label>
          <Textarea
            id={`${id}-message`}
            rows={3}
            maxLength={AUTONOMOUS_LIMITS.steering_message_max_chars}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="e.g. Also check the EU MDR requirements"
            className="w-full"
          />
          <Button type="submit" size="sm" disabled={!text.trim() || send.isPending}>
            {send.isPending ? "Sending…" : "Send"}
          </Button>
          {send.error && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {send.error.message}
            </p>
          )}
        </form>
      )}
      {!canSend && items.length === 0 && <p className="text-sm text-slate-500">No messages were sent.</p>}
    </div>
  );
}
