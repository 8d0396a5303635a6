import { requireRole, requireSession } from "@/lib/auth";
import { json } from "@/lib/http";
import { deleteDocument, getDocument } from "@/lib/rag";
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
