import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { json, parseQuery } from "@/lib/http";
import { SEARCH_K_MAX, searchKnowledge } from "@/lib/rag";
import { route } from "@/lib/server";
import { domainsParam } from "../params";

const SearchQuery = z.object({
  q: z.string().trim().min(1).max(1000),
  k: z.coerce.number().int().min(1).max(SEARCH_K_MAX).optional(),
  domain: domainsParam,
});

export const GET = route(async (req) => {
  const session = await requireSession(req);
  const { q, k, domain } = parseQuery(req, SearchQuery);
  const result = await searchKnowledge(session, { query: q, k, domains: domain });
  return json({ status: "success", count: result.items.length, ...result });
});
