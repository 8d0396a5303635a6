import { apiFetch } from "@/components/ui/api";
import type { MyAnswerReview } from "@/lib/chat/contract";
import type { HitlQueueItem } from "@/lib/hitl/contract";

// The "My requests" page's side of GET /api/me/requests.

export interface MyRequests {
  status: "success";
  waitingOnYou: number;
  answers: MyAnswerReview[];
  cases: HitlQueueItem[];
}

export const MY_REQUESTS_KEY = ["me", "requests"] as const;

export function fetchMyRequests(): Promise<MyRequests> {
  return apiFetch<MyRequests>("/api/me/requests");
}
