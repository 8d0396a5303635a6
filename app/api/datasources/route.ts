import { requireRole } from "@/lib/auth";
import { createDataSource, listDataSources, prepareJoinGraph } from "@/lib/datasources";
import { CreateDataSourceInput } from "@/lib/datasources/contract";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

/** The tenant's data sources, with their targets redacted (never the connection string). */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  const items = await listDataSources(session);
  return json({ status: "success", count: items.length, items });
});

export const POST = route(async (req) => {
  const session = await requireRole(req, "admin");
  const input = await parseBody(req, CreateDataSourceInput, 16 * 1024);
  const source = await createDataSource(session, input, session.userId);
  // A source ready to query at once (the embedded warehouse) gets its join graph built now, in
  // the background, so its page does not wait for it; a network source waits for its test.
  void prepareJoinGraph(session, source.id);
  return json({ status: "success", source }, { status: 201 });
});
