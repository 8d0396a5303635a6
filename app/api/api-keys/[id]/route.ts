import { z } from "zod";
import { requireSignedInRole } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { revokeApiKey } from "@/lib/tenancy";

const Id = z.uuid();

export const DELETE = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSignedInRole(req, "admin");
  const id = Id.safeParse((await params).id);
  if (!id.success) throw errors.validation(id.error.issues);
  return json({ status: "success", key: await revokeApiKey(session, id.data) });
});
