import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { blockedRunCases } from "@/lib/hitl";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { limitParam } from "../../params";

const BlockedQuery = z.strictObject({ limit: limitParam.optional() });

/** Open cases that runs are stopped at, the longest wait first, each with `runId` and `waitingMs`. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const q = parseQuery(req, BlockedQuery);
  const items = await blockedRunCases(session, q.limit ?? 50);
  return json({ status: "success", count: items.length, items });
});
