import { requireSession } from "@/lib/auth";
import { json } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../run-id";

export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  return json({ status: "success", run: await getRun(session, await runIdFrom(params)) });
});
