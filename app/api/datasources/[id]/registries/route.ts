import { requireRole } from "@/lib/auth";
import { getRegistries } from "@/lib/datasources";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "../params";

/** The source's domain and display registries by schema, the schemas they may describe, and who wrote them. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  return json({ status: "success", ...(await getRegistries(session, await sourceId(params))) });
});
