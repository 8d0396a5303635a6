import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { startRun } from "@/lib/runs";
import { route } from "@/lib/server";

const StartRun = z.object({
  workflow: z.string().min(1).max(100),
  input: z.unknown(),
  threadId: z.string().min(1).max(200).optional(),
});

export const POST = route(async (req) => {
  const session = await requireSession(req);
  const body = await parseBody(req, StartRun, 64 * 1024);
  const started = await startRun(session, body);
  return json({ status: "success", ...started }, { status: 202 });
});
