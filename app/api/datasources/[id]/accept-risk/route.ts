import { requireRole } from "@/lib/auth";
import { acceptSourceRisk, prepareJoinGraph } from "@/lib/datasources";
import { AcceptRiskInput } from "@/lib/datasources/contract";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "../params";

/**
 * An admin accepts that the source's role is not verified read-only: it can be queried from now
 * on (still in read-only transactions), and the audit trail records who, when and why.
 */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const id = await sourceId(params);
  const input = await parseBody(req, AcceptRiskInput, 4 * 1024);
  const source = await acceptSourceRisk(session, id, input);
  // Queryable from now on: its join graph is built in the background, ahead of its first view.
  void prepareJoinGraph(session, id);
  return json({ status: "success", source });
});
