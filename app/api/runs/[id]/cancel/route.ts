import "@/lib/agents";
import { requireSession } from "@/lib/auth";
import { json, route } from "@/lib/http";
import { cancelRun } from "@/lib/runs";
import { runIdFrom } from "../../run-id";

export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  return json({ status: "success", run: await cancelRun(session, await runIdFrom(params)) });
});
