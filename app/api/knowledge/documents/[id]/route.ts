import { requireRole, requireSession } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { classifyDocument, deleteDocument, getDocument } from "@/lib/rag";
import { DocumentPatch } from "@/lib/rag/contract";
import { route } from "@/lib/server";
import { documentIdParam as documentId } from "../../params";

type Context = { params: Promise<{ id: string }> };

export const GET = route<Context>(async (req, context) => {
  const session = await requireSession(req);
  return json({ status: "success", ...(await getDocument(session, await documentId(context))) });
});

export const DELETE = route<Context>(async (req, context) => {
  const session = await requireRole(req, "admin");
  return json({ status: "success", document: await deleteDocument(session, await documentId(context)) });
});

/**
 * An admin changes how sensitive a document is (`data_classification`) or grades its evidence
 * (`evidence_level`, null for unrated); members may not.
 */
export const PATCH = route<Context>(async (req, context) => {
  const session = await requireRole(req, "admin");
  const id = await documentId(context);
  const input = await parseBody(req, DocumentPatch);
  return json({
    status: "success",
    document: await classifyDocument(session, id, {
      dataClassification: input.data_classification,
      evidenceLevel: input.evidence_level,
    }),
  });
});
