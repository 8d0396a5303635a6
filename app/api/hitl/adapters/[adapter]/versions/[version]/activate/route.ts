import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { activateAdapterVersion } from "@/lib/hitl";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { adapterFrom } from "../../../../../params";

const Version = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number)
  .pipe(z.number().int().min(1));

/** Admin: makes a stored schema version the one new cases are validated against. */
export const POST = route<{ params: Promise<{ adapter: string; version: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const adapter = await adapterFrom(params);
  const version = Version.safeParse((await params).version);
  if (!version.success) throw errors.invalidField("version", "Must be a schema version number (1, 2, …).");
  await activateAdapterVersion(session, adapter, version.data);
  return json({ status: "success", adapter, active_version: version.data });
});
