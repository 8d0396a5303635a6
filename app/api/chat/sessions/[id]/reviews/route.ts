import { requireSession } from "@/lib/auth";
import { answerReviewStream, answerReviews } from "@/lib/chat";
import { json, withKeepAlive } from "@/lib/http";
import { sseHeaders } from "@/lib/runs";
import { route } from "@/lib/server";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/**
 * Where the reviews of the caller's answers in this session stand. With `Accept:
 * text/event-stream`, a stream that sends them at once and again whenever one changes.
 */
export const GET = route<Context>(async (req, { params }) => {
  const session = await requireSession(req);
  const sessionId = (await params).id;
  const reviews = await answerReviews(session, sessionId);
  if (!req.headers.get("accept")?.includes("text/event-stream")) {
    return json({ status: "success", count: reviews.length, items: reviews });
  }
  const headers = new Headers(sseHeaders());
  headers.delete("x-vercel-ai-ui-message-stream");
  return new Response(withKeepAlive(answerReviewStream(session, sessionId, reviews, req.signal)), { headers });
});
