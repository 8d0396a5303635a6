import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/EmptyState";
import { pageSession } from "@/lib/auth";
import { getAgentBySlug } from "@/lib/experts";
import { NotFoundError } from "@/lib/http";

export const metadata: Metadata = { title: "New chat" };

export default async function NewChatPage({ searchParams }: { searchParams: Promise<{ agent?: string }> }) {
  const result = await pageSession();
  if ("problem" in result) return null;
  const slug = (await searchParams).agent ?? "";
  const agent = await getAgentBySlug(result.session, slug).catch((e) => {
    if (e instanceof NotFoundError) return null;
    throw e;
  });
  if (!agent) {
    return (
      <EmptyState title="No such expert">
        <Link className="underline" href="/experts">
          Back to the experts
        </Link>
      </EmptyState>
    );
  }
  return (
    <div>
      <h1 className="mb-6 flex items-center gap-3 text-2xl font-semibold">
        <span aria-hidden>{agent.avatar}</span> {agent.name}
      </h1>
      <EmptyState title="Chat is coming">
        Consultations with {agent.name} — streamed answers with clickable citations from your knowledge base — are not
        available yet.{" "}
        <Link className="underline" href="/experts">
          Back to the experts
        </Link>
      </EmptyState>
    </div>
  );
}
