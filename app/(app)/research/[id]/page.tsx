import type { Metadata } from "next";
import { ResearchView } from "@/components/research/ResearchView";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "Research" };

export default async function ResearchRunPage({ params }: { params: Promise<{ id: string }> }) {
  const result = await pageSession();
  // The layout already tells a person without a tenant why they cannot go on.
  if ("problem" in result) return null;
  const { id } = await params;
  const { userId, role } = result.session;
  return <ResearchView key={id} runId={id} viewer={{ userId, role }} />;
}
