import { z } from "zod";
import { WORKFLOW_INPUTS } from "@/lib/agents";
import { requireSession } from "@/lib/auth";
import { AppError, errors, json, parseBody, route } from "@/lib/http";
import { startRun } from "@/lib/runs";

const StartRun = z.object({
  workflow: z.string().min(1).max(100),
  input: z.unknown(),
  threadId: z.string().min(1).max(200).optional(),
});

export const POST = route(async (req) => {
  const session = await requireSession(req);
  const body = await parseBody(req, StartRun, 64 * 1024);
  const schema = WORKFLOW_INPUTS[body.workflow as keyof typeof WORKFLOW_INPUTS];
  if (!schema) throw new AppError(404, "UNKNOWN_WORKFLOW", `There is no workflow named "${body.workflow}".`);
  const input = schema.safeParse(body.input);
  if (!input.success) throw errors.validation(input.error.issues.map((i) => ({ ...i, path: ["input", ...i.path] })));
  const started = await startRun(session, { workflow: body.workflow, input: input.data, threadId: body.threadId });
  return json({ status: "success", ...started }, { status: 202 });
});
