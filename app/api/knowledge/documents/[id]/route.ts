import { z } from "zod";
import { requireRole, requireSession } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http";
import { deleteDocument, getDocument } from "@/lib/rag";
import { route } from "@/lib/server";

type Context = { params: Promise<{ id: string }> };

async function documentId(context: Context): Promise<string> {
  const id = z.uuid().safeParse((await context.params).id);
  if (!id.success) throw errors.validation(id.error.issues);
  return id.data;
}

export const GET = route<Context>(async (req, context) => {
  const session = await requireSession(req);
  return json({ status: "success", ...(await getDocument(session, await documentId(context))) });
});

export const DELETE = route<Context>(async (req, context) => {
  const session = await requireRole(req, "admin");
  return json({ status: "success", document: await deleteDocument(session, await documentId(context)) });
});
