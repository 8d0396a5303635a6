import { requireRole } from "@/lib/auth";
import { listJoinGraphVersions } from "@/lib/datasources";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "../../params";

/** The source's join graph versions, newest first, with their sizes and authors (not the graphs). */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const items = await listJoinGraphVersions(session, await sourceId(params));
  return json({ status: "success", count: items.length, items });
});
