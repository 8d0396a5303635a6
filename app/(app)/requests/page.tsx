import type { Metadata } from "next";
import { MyRequests } from "@/components/requests/MyRequests";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "My requests" };

/** What the signed-in person waits on from reviewers: answers under review and cases they submitted. */
export default async function RequestsPage() {
  const result = await pageSession();
  if ("problem" in result) return null;
  return (
    <div>
      <h1 className="text-2xl font-semibold">My requests</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        Answers of yours a reviewer is checking, your runs waiting at a checkpoint, and cases you submitted.
      </p>
      <MyRequests />
    </div>
  );
}
