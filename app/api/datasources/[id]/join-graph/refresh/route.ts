import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { currentJoinGraph } from "@/lib/datasources";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "../../params";

/** A refresh takes no options: the body is `{}`, and anything else is refused. */
const RefreshInput = z.strictObject({});

/** Introspects the source now; a new version is stored only when the graph changed. */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const id = await sourceId(params);
  await parseBody(req, RefreshInput);
  const graph = await currentJoinGraph(session, id, { refresh: true, actor: session.userId });
  return json({ status: "success", ...graph });
});
