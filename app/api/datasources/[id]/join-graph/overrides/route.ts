import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { setJoinGraphOverrides } from "@/lib/datasources";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "../../params";

/**
 * Replaces the source's manual overrides (the design's `join_graph_manual.json`: add_relationships,
 * remove_relationships, table_metadata). The body is the document itself; it is validated by
 * the join graph's own schema, and a new version is stored when the graph or the overrides change.
 */
export const PUT = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const id = await sourceId(params);
  const overrides = await parseBody(req, z.unknown());
  const graph = await setJoinGraphOverrides(session, id, overrides, session.userId);
  return json({ status: "success", ...graph });
});
