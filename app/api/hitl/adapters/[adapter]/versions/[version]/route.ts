import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { adapterSchemaVersion } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { adapterFrom } from "../../../../params";

const Version = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number)
  .pipe(z.number().int().min(1));

/** One schema version of an adapter, with its JSON Schema (what the inbox builds its edit form from). */
export const GET = route<{ params: Promise<{ adapter: string; version: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const adapter = await adapterFrom(params);
  const version = Version.safeParse((await params).version);
  if (!version.success) throw errors.invalidField("version", "Must be a schema version number (1, 2, …).");
  const found = await adapterSchemaVersion(session, adapter, version.data);
  return json({ status: "success", ...found });
});
