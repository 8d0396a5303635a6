import { z } from "zod";
import { requireRole, requireSession } from "@/lib/auth";
import { json, parseQuery } from "@/lib/http";
import { DOCUMENT_PAGE_MAX, ingestDocument, listDocuments, readDocumentUpload } from "@/lib/rag";
import { route } from "@/lib/server";
import { domainsParam } from "../params";
import { ingestionEvents, wantsProgressEvents } from "./progress";

const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(DOCUMENT_PAGE_MAX).optional(),
  cursor: z.string().min(1).max(1000).optional(),
  domain: domainsParam,
});

export const GET = route(async (req) => {
  const session = await requireSession(req);
  const { limit, cursor, domain } = parseQuery(req, ListQuery);
  const page = await listDocuments(session, { limit, cursor, domains: domain });
  return json({ status: "success", ...page });
});

export const POST = route(async (req) => {
  const session = await requireRole(req, "admin");
  const input = await readDocumentUpload(req);
  if (wantsProgressEvents(req)) {
    return ingestionEvents((onProgress) => ingestDocument(session, input, { createdBy: session.userId, onProgress }));
  }
  const result = await ingestDocument(session, input, { createdBy: session.userId });
  return json({ status: "success", ...result }, { status: result.created ? 201 : 200 });
});
