import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/EmptyState";

export const metadata: Metadata = { title: "Chat" };

export default function ChatHome() {
  return (
    <div className="pt-10">
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
