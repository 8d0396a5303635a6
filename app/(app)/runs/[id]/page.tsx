import type { Metadata } from "next";
import { RunView } from "@/components/runs/RunView";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "Run" };

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const result = await pageSession();
  // The layout already tells a person without a tenant why they cannot go on.
  if ("problem" in result) return null;
  const { id } = await params;
  const { userId, role } = result.session;
  return <RunView key={id} runId={id} viewer={{ userId, role }} />;
}
