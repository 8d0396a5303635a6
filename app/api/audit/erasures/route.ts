import { z } from "zod";
import { eraseUserContent, erasureSubjectKnown } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { NotFoundError } from "@/lib/errors";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

const ErasureInput = z.strictObject({ user_id: z.string().trim().min(1).max(200) });

/** Redacts one user's content from the tenant's trace without breaking the chain. */
export const POST = route(async (req) => {
  const session = await requireRole(req, "admin");
  const { user_id } = await parseBody(req, ErasureInput);
  if (!(await erasureSubjectKnown(session, user_id))) throw new NotFoundError("User", { user_id });
  const erasure = await eraseUserContent({ tenantId: session.tenantId, actorId: session.userId }, user_id);
  return json({ erasure }, { status: 201 });
});
