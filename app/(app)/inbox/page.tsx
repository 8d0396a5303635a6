import type { Metadata } from "next";
import { Suspense } from "react";
import { ReviewInbox } from "@/components/hitl/ReviewInbox";
import { roleAtLeast } from "@/lib/access";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "Inbox" };

/** Reviewers decide here; members see the tenant's shared cases and their own, and answer reviewers' questions. */
export default async function InboxPage() {
  const result = await pageSession();
  // The layout already tells a person without a tenant why they cannot go on.
  if ("problem" in result) return null;
  const { role } = result.session;
  return (
    <div>
      <h1 className="text-2xl font-semibold">Review inbox</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        {roleAtLeast(role, "reviewer")
          ? "Every decision an agent or an external system asks a human for. Approve, reject, modify or ask for clarification."
          : "Your tenant's shared cases and the reviews of your own work. Reviewers decide them; you can follow them and answer their questions."}
      </p>
      <Suspense fallback={<p className="text-sm text-slate-500">Loading the inbox…</p>}>
        <ReviewInbox role={role} />
      </Suspense>
    </div>
  );
}
