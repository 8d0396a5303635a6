import { apiFetch } from "@/components/ui/api";
import type { MyAnswerReview } from "@/lib/chat/contract";
import type { HitlQueueItem, RunCaseItem } from "@/lib/hitl/contract";

/** An open checkpoint of a run the person started: its case, and the run it holds up. */
export type RunCase = RunCaseItem;

// The "My requests" page's side of GET /api/me/requests.

export interface MyRequests {
  status: "success";
  waitingOnYou: number;
  answers: MyAnswerReview[];
  runs: RunCase[];
  cases: HitlQueueItem[];
}

export const MY_REQUESTS_KEY = ["me", "requests"] as const;

export function fetchMyRequests(): Promise<MyRequests> {
  return apiFetch<MyRequests>("/api/me/requests");
}
