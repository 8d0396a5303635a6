import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { clarificationBacklog } from "@/lib/hitl";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { cursorParam, limitParam, listBody } from "../params";

const BacklogQuery = z.strictObject({ limit: limitParam.optional(), cursor: cursorParam.optional() });

/** Cases waiting for the submitter's answer, oldest question first, each with its age (`ageMs`). */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const q = parseQuery(req, BacklogQuery);
  return json(listBody(await clarificationBacklog(session, { limit: q.limit, cursor: q.cursor })));
});
