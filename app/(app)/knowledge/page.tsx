import type { Metadata } from "next";
import { KnowledgeManager } from "@/components/knowledge/KnowledgeManager";
import { RoleGate } from "@/components/ui/RoleGate";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "Knowledge" };

export default async function KnowledgePage() {
  const result = await pageSession();
  if ("problem" in result) return null;
  return (
    <RoleGate needs="admin">
      <h1 className="text-2xl font-semibold">Knowledge base</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">
        The documents the experts of {result.session.tenantName} answer from. Each document is split into chunks and
        searched within its knowledge domains; uploading the same content twice adds nothing.
      </p>
      <KnowledgeManager currentUserId={result.session.userId} />
    </RoleGate>
  );
}
