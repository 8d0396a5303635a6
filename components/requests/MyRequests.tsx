"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ReviewBadge } from "@/components/chat/ReviewNote";
import { ClarificationAnswer } from "@/components/hitl/ClarificationAnswer";
import { ago } from "@/components/hitl/format";
import { EmptyState } from "@/components/ui/EmptyState";
import type { MyAnswerReview } from "@/lib/chat/contract";
import type { HitlQueueItem } from "@/lib/hitl/contract";
import { fetchMyRequests, MY_REQUESTS_KEY, type RunCase } from "./api";

const when = (iso: string | number) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

const STATE_LABELS: Record<string, string> = {
  pending: "Waiting for a reviewer",
  needs_clarification: "A reviewer asks you something",
  approved: "Approved",
  rejected: "Rejected",
};

function AnswerItem({ item }: { item: MyAnswerReview }) {
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid="my-answer-review">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <ReviewBadge review={item} />
        <span className="text-slate-500 dark:text-slate-400">
          {item.agentName} · {when(item.answeredAt)}
        </span>
      </div>
      <Link href={`/chat/${item.sessionId}`} className="mt-1 block font-medium hover:underline">
        {item.sessionTitle || "Untitled conversation"}
      </Link>
      {item.status === "needs_clarification" && item.question && (
        <p className="mt-1 text-sm">
          <span className="font-medium">The reviewer asks:</span> {item.question}{" "}
          <Link className="underline" href={`/chat/${item.sessionId}`}>
            Answer in the conversation
          </Link>
        </p>
      )}
      {item.status === "rejected" && item.reason && <p className="mt-1 text-sm">Reason: {item.reason}</p>}
    </li>
  );
}

function CaseItem({ item }: { item: HitlQueueItem }) {
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid="my-case">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="rounded-full bg-slate-100 px-2 py-0.5 font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {STATE_LABELS[item.state] ?? item.state}
        </span>
        <span>
          {item.adapter} · {when(item.createdAt)}
        </span>
      </div>
      <Link href={`/inbox?case=${encodeURIComponent(item.id)}`} className="mt-1 block font-medium hover:underline">
        {item.title}
      </Link>
      {item.state === "needs_clarification" && item.openQuestion && (
        <p className="mt-1 text-sm">
          <span className="font-medium">The reviewer asks:</span> {item.openQuestion}
        </p>
      )}
    </li>
  );
}

/** A checkpoint of the person's own run: waiting for a reviewer, or for the person's answer to one. */
function RunCaseItem({ item }: { item: RunCase }) {
  const asked = item.state === "needs_clarification";
  return (
    <li
      className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800"
      data-testid="my-run-case"
      data-case-id={item.id}
      data-state={item.state}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="rounded-full bg-slate-100 px-2 py-0.5 font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {asked ? "A reviewer asks you something" : "Waiting for a reviewer"}
        </span>
        <span>Your run has waited {ago(item.createdAt).replace(/ ago$/, "")}</span>
      </div>
      <Link href={`/runs/${encodeURIComponent(item.runId)}`} className="block font-medium hover:underline">
        {item.title}
      </Link>
      {asked && <ClarificationAnswer caseId={item.id} question={item.openQuestion} />}
    </li>
  );
}

/** What the signed-in person waits on from reviewers, and what waits on them. */
export function MyRequests() {
  const { data, error, isPending } = useQuery({
    queryKey: MY_REQUESTS_KEY,
    queryFn: fetchMyRequests,
    refetchInterval: 15_000,
  });
  if (isPending) return <p className="text-sm text-slate-500">Loading your requests…</p>;
  if (error) return <EmptyState title="Could not load your requests">{error.message}</EmptyState>;
  if (data.answers.length === 0 && data.cases.length === 0 && data.runs.length === 0) {
    return (
      <EmptyState title="Nothing is waiting on a reviewer">
        When an answer you get goes to review, a run of yours stops at a checkpoint, or you submit a case, it shows
        here.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-8">
      {data.waitingOnYou > 0 && (
        <p
          role="status"
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100"
        >
          {data.waitingOnYou === 1
            ? "A reviewer is waiting on your answer."
            : `${data.waitingOnYou} reviewers' questions wait on you.`}
        </p>
      )}
      {data.runs.length > 0 && (
        <section aria-labelledby="runs-heading">
          <h2 id="runs-heading" className="mb-2 text-lg font-medium">
            Your runs at a checkpoint
          </h2>
          <ul className="space-y-2">
            {data.runs.map((item) => (
              <RunCaseItem key={item.id} item={item} />
            ))}
          </ul>
        </section>
      )}
      {data.answers.length > 0 && (
        <section aria-labelledby="answers-heading">
          <h2 id="answers-heading" className="mb-2 text-lg font-medium">
            Answers under review
          </h2>
          <ul className="space-y-2">
            {data.answers.map((item) => (
              <AnswerItem key={item.caseId} item={item} />
            ))}
          </ul>
        </section>
      )}
      {data.cases.length > 0 && (
        <section aria-labelledby="cases-heading">
          <h2 id="cases-heading" className="mb-2 text-lg font-medium">
            Cases you submitted
          </h2>
          <ul className="space-y-2">
            {data.cases.map((item) => (
              <CaseItem key={item.id} item={item} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
