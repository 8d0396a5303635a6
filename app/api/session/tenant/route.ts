import { z } from "zod";
import { requireSession, tenantCookie } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

const SwitchTenant = z.object({ tenantId: z.uuid() });

export const POST = route(async (req) => {
  const session = await requireSession(req);
  const { tenantId } = await parseBody(req, SwitchTenant, 4 * 1024);
  const cookie = tenantCookie(session, tenantId);
  return json({ status: "success", tenantId }, { headers: { "set-cookie": cookie } });
});
