"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiFetch } from "@/components/ui/api";
import type { AnswerReviewContext } from "@/lib/chat/contract";
import { type HitlRef, VIGIL_REF_KEY } from "@/lib/hitl/contract";
import { humanize } from "./format";

interface SessionBody {
  session: { userId: string };
}

/** Who is looking (a chat session opens only for its owner). */
function useViewerId(enabled: boolean): string | null {
  const { data } = useQuery({
    queryKey: ["session", "me"],
    queryFn: () => apiFetch<SessionBody>("/api/session"),
    staleTime: 5 * 60_000,
    enabled,
  });
  return data?.session.userId ?? null;
}

/**
 * What a case is about. A chat session is a link for the person who asked in it (nobody else
 * may open it); a run links to its page (its owner and reviewers may open it); threads and
 * outside ids are shown as they are.
 */
export function CaseRefs({ refs, context }: { refs: HitlRef[]; context: AnswerReviewContext | null }) {
  const chatRef = refs.find((ref) => ref.ref_type === "chat_session");
  const viewerId = useViewerId(Boolean(chatRef && context));
  const mayOpen = (ref: HitlRef) =>
    ref.ref_type === "chat_session" &&
    context !== null &&
    context.sessionId === ref.ref_value &&
    viewerId !== null &&
    viewerId === context.asker.id;

  return (
    <ul className="space-y-1 text-sm" data-testid="case-refs">
      {refs.map((ref) => (
        <li
          key={`${ref.ref_type}:${ref.ref_key}:${ref.ref_value}`}
          className="break-words"
          data-ref-kind={ref.ref_type}
        >
          <span className="text-slate-500 dark:text-slate-400">
            {humanize(ref.ref_type)}
            {ref.ref_key !== VIGIL_REF_KEY ? ` (${ref.ref_key})` : ""}:
          </span>{" "}
          {ref.ref_type === "run" || ref.ref_type === "run_checkpoint" ? (
            <Link
              href={`/runs/${encodeURIComponent(ref.ref_value)}`}
              className="font-mono break-all text-brand-600 underline"
              data-testid="case-run-link"
            >
              {ref.ref_value}
            </Link>
          ) : mayOpen(ref) ? (
            <Link
              href={`/chat/${encodeURIComponent(ref.ref_value)}`}
              className="font-mono break-all text-brand-600 underline"
            >
              {ref.ref_value}
            </Link>
          ) : (
            <span className="font-mono break-all">{ref.ref_value}</span>
          )}
          {ref.ref_type === "chat_session" &&
            viewerId !== null &&
            !mayOpen(ref) &&
            context?.sessionId === ref.ref_value && (
              <span className="text-xs text-slate-500 dark:text-slate-400"> (only the asker opens it)</span>
            )}
        </li>
      ))}
    </ul>
  );
}
