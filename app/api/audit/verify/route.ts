import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { integrityStatus, verifyAndRecord } from "@/lib/trace";

/** The latest recorded verification and the chain's length now; walks nothing. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  return json(await integrityStatus({ tenantId: session.tenantId }));
});

/** Verification takes no options: the body is `{}`, and anything else is refused. */
const VerifyInput = z.strictObject({});

/** Walks the tenant's chain now and records the result (the audit page shows the latest). */
export const POST = route(async (req) => {
  const session = await requireRole(req, "admin");
  await parseBody(req, VerifyInput);
  return json(await verifyAndRecord({ tenantId: session.tenantId, actorId: session.userId }));
});
