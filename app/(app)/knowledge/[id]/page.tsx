import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { DocumentViewer } from "@/components/knowledge/DocumentViewer";
import { roleAtLeast } from "@/lib/access";
import { NotFoundError } from "@/lib/errors";
import { documentOverview } from "@/lib/rag";
import { pageSession } from "@/lib/server";

export const metadata: Metadata = { title: "Document" };

// Whoever may read the knowledge API may open a document here (members read what the experts
// cite); managing the collection (/knowledge) stays with admins.
export default async function DocumentPage({ params }: { params: Promise<{ id: string }> }) {
  const result = await pageSession();
  if ("problem" in result) return null;
  const id = z.uuid().safeParse((await params).id);
  if (!id.success) notFound();
  const overview = await documentOverview(result.session, id.data).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (!overview) notFound();
  return (
    <DocumentViewer
      key={overview.document.id}
      overview={overview}
      canManage={roleAtLeast(result.session.role, "admin")}
      currentUserId={result.session.userId}
    />
  );
}
