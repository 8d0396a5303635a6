import type { Metadata } from "next";
import Link from "next/link";
import { SessionsButton } from "@/components/chat/ChatLayout";
import { EmptyState } from "@/components/ui/EmptyState";

export const metadata: Metadata = { title: "Chat" };

export default function ChatHome() {
  return (
    <div className="md:pt-10">
      <div className="mb-4 md:hidden">
        <SessionsButton withLabel />
      </div>
      <EmptyState title="No conversation open">
        Open one of your conversations, or{" "}
        <Link className="underline" href="/experts">
          pick an expert
        </Link>{" "}
        to start a new one.
      </EmptyState>
    </div>
  );
}
