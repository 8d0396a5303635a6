import type { Metadata } from "next";
import { SessionChat } from "@/components/chat/ChatView";

export const metadata: Metadata = { title: "Chat" };

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SessionChat key={id} sessionId={id} />;
}
