import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { resumeRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../../run-id";

const Resume = z.object({ value: z.unknown(), interruptId: z.string().min(1).max(200).optional() });

/** Answers a run's pending interrupt directly (runs whose interrupts are HITL cases are resumed by deciding the case). */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const runId = await runIdFrom(params);
  const decision = await parseBody(req, Resume, 64 * 1024);
  return json({ status: "success", run: await resumeRun(session, runId, decision) }, { status: 202 });
});
