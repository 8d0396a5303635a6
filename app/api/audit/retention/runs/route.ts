import { z } from "zod";
import { applyRetention } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

const ApplyInput = z.strictObject({ dry_run: z.boolean().optional() });

/**
 * An admin's "Apply now": the policy applied at the server's clock (only the command line may
 * apply it as of another time). `dry_run` answers what would be removed and removes nothing.
 */
export const POST = route(async (req) => {
  const session = await requireRole(req, "admin");
  const input = await parseBody(req, ApplyInput);
  const options = { now: new Date(), trigger: "manual" as const, actor: session.userId };
  if (input.dry_run) return json(await applyRetention(session, { ...options, dryRun: true }));
  return json({ run: await applyRetention(session, options) }, { status: 201 });
});
