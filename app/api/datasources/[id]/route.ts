import { requireRole } from "@/lib/auth";
import { getDataSource, removeDataSource, setDefaultDataSource } from "@/lib/datasources";
import { UpdateDataSourceInput } from "@/lib/datasources/contract";
import { json, parseBody } from "@/lib/http";
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

/** `{isDefault}`: the tenant's default source for the Data Analyst (one at a time). */
export const PUT = route<Context>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const id = await sourceId(params);
  const input = await parseBody(req, UpdateDataSourceInput, 1024);
  return json({ status: "success", source: await setDefaultDataSource(session, id, input.isDefault) });
});
