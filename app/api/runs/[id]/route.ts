import "@/lib/agents";
import { requireSession } from "@/lib/auth";
import { json, route } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { runIdFrom } from "../run-id";

export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  return json({ status: "success", run: await getRun(session, await runIdFrom(params)) });
});
