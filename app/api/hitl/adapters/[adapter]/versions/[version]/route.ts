import { requireSession } from "@/lib/auth";
import { adapterSchemaVersion } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { adapterFrom, versionFrom } from "../../../../params";

/** One schema version of an adapter, with its JSON Schema (what the inbox builds its edit form from). */
export const GET = route<{ params: Promise<{ adapter: string; version: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const adapter = await adapterFrom(params);
  const version = await versionFrom(params);
  const found = await adapterSchemaVersion(session, adapter, version);
  return json({ status: "success", ...found });
});
