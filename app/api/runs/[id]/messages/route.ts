import { listSteering, sendSteering } from "@/lib/agents";
import { SteeringMessage } from "@/lib/agents/contract";
import { requireSession } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { runIdFrom } from "../../run-id";

type Params = { params: Promise<{ id: string }> };

/** Steering: a message to the agent working the run, delivered at its next safe point. */
export const POST = route<Params>(async (req, { params }) => {
  const session = await requireSession(req);
  const runId = await runIdFrom(params);
  const body = await parseBody(req, SteeringMessage, 16 * 1024);
  return json({ status: "success", message: await sendSteering(session, runId, body.message) }, { status: 202 });
});

export const GET = route<Params>(async (req, { params }) => {
  const session = await requireSession(req);
  return json({ status: "success", items: await listSteering(session, await runIdFrom(params)) });
});
