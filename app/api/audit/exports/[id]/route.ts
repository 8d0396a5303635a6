import { getAuditExport } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { readerOf } from "../../reader";
import { exportIdFrom } from "./id";

/** An export's status and, once it is ready, its manifest. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  return json(await getAuditExport(readerOf(session), await exportIdFrom(params)));
});
