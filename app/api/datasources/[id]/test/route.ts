import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { prepareJoinGraph, testDataSource } from "@/lib/datasources";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "../params";

/** A test takes no options: the body is `{}`, and anything else is refused. */
const TestInput = z.strictObject({});

/** Connects now and reports reachability, version, read-only status and schemas; kept on the source. */
export const POST = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const id = await sourceId(params);
  await parseBody(req, TestInput);
  const result = await testDataSource(session, id);
  // A test that verified the source read-only makes it queryable: its join graph is built now,
  // in the background, ahead of its first view (nothing happens for a source not ready or built).
  void prepareJoinGraph(session, id);
  return json({ status: "success", result });
});
