import type { Metadata } from "next";
import Link from "next/link";
import { NewChat } from "@/components/chat/ChatView";
import { EmptyState } from "@/components/ui/EmptyState";
import { suggestedQuestions } from "@/lib/chat";
import { NotFoundError } from "@/lib/errors";
import { getAgentBySlug } from "@/lib/experts";
import { pageSession } from "@/lib/server";

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
      <div className="pt-10">
        <EmptyState title="No such expert">
          <Link className="underline" href="/experts">
            Back to the experts
          </Link>
        </EmptyState>
      </div>
    );
  }
  const { id, name, avatar, domain, description, workflow, defaultSafetyLevel } = agent;
  const suggestions = await suggestedQuestions(
    result.session,
    agent.knowledgeDomains,
    `${name} ${domain ?? ""} ${description ?? ""}`,
  );
  // A fresh conversation each time this page is opened for an agent.
  return (
    <NewChat
      key={`${slug}:${Date.now()}`}
      agent={{ id, slug, name, avatar, domain, description, workflow, defaultSafetyLevel }}
      suggestions={suggestions}
    />
  );
}
