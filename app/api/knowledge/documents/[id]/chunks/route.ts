import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { json, parseQuery } from "@/lib/http";
import { CHUNK_PAGE_MAX, listDocumentChunks } from "@/lib/rag";
import { route } from "@/lib/server";
import { documentIdParam } from "../../../params";

type Context = { params: Promise<{ id: string }> };

const ChunksQuery = z.object({
  limit: z.coerce.number().int().min(1).max(CHUNK_PAGE_MAX).optional(),
  cursor: z
    .string()
    .regex(/^\d{1,9}$/, "the ord of the last chunk of the previous page")
    .optional(),
});

export const GET = route<Context>(async (req, context) => {
  const session = await requireSession(req);
  const id = await documentIdParam(context);
  const { limit, cursor } = parseQuery(req, ChunksQuery);
  return json({ status: "success", ...(await listDocumentChunks(session, id, { limit, cursor })) });
});
