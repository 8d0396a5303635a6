import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { listAgents } from "@/lib/experts";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";

const Query = z.object({ q: z.string().max(200).optional() });

export const GET = route(async (req) => {
  const session = await requireSession(req);
  const { q } = parseQuery(req, Query);
  const items = await listAgents(session, { q });
  return json({ status: "success", count: items.length, items });
});
