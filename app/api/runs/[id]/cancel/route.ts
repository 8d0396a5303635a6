import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { json, parseBody } from "@/lib/http";
import { cancelRun } from "@/lib/runs";
import { route } from "@/lib/server";
import { runIdFrom } from "../../run-id";

/**
 * Optional: what the canceller had on screen. A chat keeps no more of a stopped answer than its
 * asker had read (the server may have streamed further while Stop travelled).
 */
const Cancel = z
  .object({
    shown: z
      .object({ textChars: z.number().int().min(0).max(10_000_000) })
      .strict()
      .optional(),
  })
  .strict();

/** Cancels a running or waiting run; 409 RUN_FINISHED when it had already ended. */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const runId = await runIdFrom(params);
  // The body is optional: a cancel without one (or with an empty one) keeps what the log holds.
  const typed = req.headers.get("content-type")?.includes("json") && req.headers.get("content-length") !== "0";
  const body = typed ? await parseBody(req, Cancel, 4 * 1024) : {};
  return json({ status: "success", run: await cancelRun(session, runId, body.shown) });
});
