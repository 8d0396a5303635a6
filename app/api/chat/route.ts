import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { startChatTurn } from "@/lib/chat";
import { parseBody } from "@/lib/http";
import { runEventStream, sseHeaders } from "@/lib/runs";
import { route } from "@/lib/server";

export const dynamic = "force-dynamic";

const ChatRequest = z.object({
  sessionId: z.uuid().optional(),
  agentId: z.string().trim().min(1).max(200),
  // Length in bytes is checked by startChatTurn (8 KiB of UTF-8); this only bounds the string.
  message: z.string().max(8192),
  /** Answer the session's last question again ("retry"), without storing it twice. */
  retry: z.boolean().optional(),
});

/** One turn of a consultation, answered as the run's UI message stream. */
export const POST = route(async (req) => {
  const session = await requireSession(req);
  const body = await parseBody(req, ChatRequest, 64 * 1024);
  const turn = await startChatTurn(session, body);
  const headers = new Headers(sseHeaders());
  headers.set("x-vigil-session-id", turn.sessionId);
  headers.set("x-vigil-run-id", turn.runId);
  return new Response(runEventStream(session, turn.runId, 0, req.signal), { headers });
});
