import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { json, parseBody, parseQuery } from "@/lib/http";
import { listRuns, startRun } from "@/lib/runs";
import { route } from "@/lib/server";

const StartRun = z.object({
  workflow: z.string().min(1).max(100),
  input: z.unknown(),
  threadId: z.string().min(1).max(200).optional(),
});

/** Starts a run; 429 TOO_MANY_RUNS (with Retry-After) while the caller has too many working. */
export const POST = route(async (req) => {
  const session = await requireSession(req);
  const body = await parseBody(req, StartRun, 64 * 1024);
  const started = await startRun(session, body);
  return json({ status: "success", ...started }, { status: 202 });
});

const ListRuns = z.object({
  workflow: z.string().min(1).max(100).optional(),
  status: z.enum(["running", "interrupted", "completed", "failed", "cancelled"]).optional(),
  /** Reviewers and admins: everyone's runs, not only their own. */
  all: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().min(1).max(200).optional(),
});

/** The caller's runs, newest first, a page at a time. */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const page = await listRuns(session, parseQuery(req, ListRuns));
  return json({ status: "success", ...page });
});
