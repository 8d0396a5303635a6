import { requireSession } from "@/lib/auth";
import { startChatTurn } from "@/lib/chat";
import { ChatRequest } from "@/lib/chat/contract";
import { parseBody, withKeepAlive } from "@/lib/http";
import { runEventStream, sseHeaders } from "@/lib/runs";
import { route } from "@/lib/server";

export const dynamic = "force-dynamic";

/**
 * One turn of a consultation, answered as the run's UI message stream; 429 TOO_MANY_RUNS (with
 * Retry-After) while the member has too many chat and autonomous runs working.
 */
export const POST = route(async (req) => {
  const session = await requireSession(req);
  const body = await parseBody(req, ChatRequest, 64 * 1024);
  const turn = await startChatTurn(session, body);
  const headers = new Headers(sseHeaders());
  headers.set("x-vigil-session-id", turn.sessionId);
  headers.set("x-vigil-run-id", turn.runId);
  return new Response(withKeepAlive(runEventStream(session, turn.runId, 0, req.signal)), { headers });
});
