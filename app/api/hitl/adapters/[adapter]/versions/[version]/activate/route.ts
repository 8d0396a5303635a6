import { requireRole } from "@/lib/auth";
import { activateAdapterVersion } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { adapterFrom, versionFrom } from "../../../../../params";

/** Admin: makes a stored schema version the one new cases are validated against. */
export const POST = route<{ params: Promise<{ adapter: string; version: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const adapter = await adapterFrom(params);
  const version = await versionFrom(params);
  await activateAdapterVersion(session, adapter, version);
  return json({ status: "success", adapter, active_version: version });
});
