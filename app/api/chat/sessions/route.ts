import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { listChatSessions, SESSION_PAGE_MAX, SESSION_SEARCH_MAX_CHARS } from "@/lib/chat";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";

const ListQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(SESSION_PAGE_MAX).optional(),
  // Words the title must contain; control characters are never part of a title.
  q: z
    .string()
    .max(SESSION_SEARCH_MAX_CHARS)
    .regex(/^[^\p{Cc}]*$/u, "The search must not contain control characters.")
    .optional(),
});

/** The caller's own chat sessions in the active tenant, most recent first; `q` searches their titles. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const query = parseQuery(req, ListQuery);
  const page = await listChatSessions(session, {
    cursor: query.cursor || undefined,
    limit: query.limit,
    q: query.q,
  });
  return json({ status: "success", count: page.items.length, items: page.items, next_cursor: page.nextCursor });
});
