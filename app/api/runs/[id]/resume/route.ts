import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { answerInterrupt } from "@/lib/checkpoints";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { runIdFrom } from "../../run-id";

const Resume = z.object({
  value: z.unknown(),
  interruptId: z.string().min(1).max(200).optional(),
  requestId: z.string().min(1).max(200).optional(),
});

/** Answers a run's pending interrupt; a checkpoint's answer is recorded as its review case's decision. */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const runId = await runIdFrom(params);
  const answer = await parseBody(req, Resume, 64 * 1024);
  return json({ status: "success", run: await answerInterrupt(session, runId, answer) }, { status: 202 });
});
