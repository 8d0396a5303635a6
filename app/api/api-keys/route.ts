import { z } from "zod";
import { requireSignedInRole } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { createApiKey, listApiKeys } from "@/lib/tenancy";

const CreateKey = z.object({
  name: z.string().trim().min(1).max(100),
  role: z.enum(["member", "reviewer", "admin"]),
});

// Keys are managed by signed-in admins only: a key that could mint keys could outlive its own
// revocation through them.
export const GET = route(async (req) => {
  const session = await requireSignedInRole(req, "admin");
  const items = await listApiKeys(session);
  return json({ status: "success", count: items.length, items });
});

export const POST = route(async (req) => {
  const session = await requireSignedInRole(req, "admin");
  const input = await parseBody(req, CreateKey, 4 * 1024);
  const key = await createApiKey(session, { ...input, createdBy: session.userId, createdVia: "session" });
  return json({ status: "success", key }, { status: 201 });
});
