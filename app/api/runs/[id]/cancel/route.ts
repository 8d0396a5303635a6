import { requireSession } from "@/lib/auth";
import { json } from "@/lib/http";
import { cancelRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../../run-id";

export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  return json({ status: "success", run: await cancelRun(session, await runIdFrom(params)) });
});
