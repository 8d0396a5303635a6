import type { ReactNode } from "react";
import { ChatLayout } from "@/components/chat/ChatLayout";

export default function Layout({ children }: { children: ReactNode }) {
  return <ChatLayout>{children}</ChatLayout>;
}
