import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { deleteChatSession, getChatSession, MAX_TITLE_CHARS, renameChatSession } from "@/lib/chat";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

type Context = { params: Promise<{ id: string }> };

const Rename = z.object({ title: z.string().trim().min(1).max(MAX_TITLE_CHARS) });

export const GET = route<Context>(async (req, { params }) => {
  const session = await requireSession(req);
  const detail = await getChatSession(session, (await params).id);
  return json({ status: "success", ...detail });
});

export const PATCH = route<Context>(async (req, { params }) => {
  const session = await requireSession(req);
  const body = await parseBody(req, Rename, 16 * 1024);
  const renamed = await renameChatSession(session, (await params).id, body.title);
  return json({ status: "success", session: renamed });
});

/** Deletes the session and its messages; 409 while the agent is still answering in it. */
export const DELETE = route<Context>(async (req, { params }) => {
  const session = await requireSession(req);
  const deleted = await deleteChatSession(session, (await params).id);
  return json({ status: "success", deleted: deleted.id });
});
