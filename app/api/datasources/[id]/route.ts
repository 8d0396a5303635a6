import { requireRole } from "@/lib/auth";
import { getDataSource, removeDataSource } from "@/lib/datasources";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "./params";

type Context = { params: Promise<{ id: string }> };

export const GET = route<Context>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  return json({ status: "success", source: await getDataSource(session, await sourceId(params)) });
});

export const DELETE = route<Context>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  return json({ status: "success", source: await removeDataSource(session, await sourceId(params)) });
});
