import { z } from "zod";
import { createAuditExport, listAuditExports } from "@/lib/audit";
import { AUDIT_EXPORT_FORMATS, AUDIT_EXPORT_KINDS } from "@/lib/audit/contract";
import { requireRole } from "@/lib/auth";
import { json, parseBody, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange, timeParam } from "../../hitl/params";
import { pageQuery, pageResponse } from "../list-query";
import { readerOf } from "../reader";

// A JSON body may give a bound as epoch milliseconds (a number) or as an ISO date.
const bound = (which: "start" | "end") =>
  z.preprocess((v) => (typeof v === "number" ? String(v) : v), timeParam(which));

const ExportBody = z.strictObject({
  kind: z.enum(AUDIT_EXPORT_KINDS),
  format: z.enum(AUDIT_EXPORT_FORMATS),
  from: bound("start").optional(),
  to: bound("end").optional(),
});

const ExportsQuery = z.strictObject(pageQuery);

/** Requests an export of the trace, the decisions or the cases; it is written in the background. */
export const POST = route(async (req) => {
  const session = await requireRole(req, "admin");
  const body = await parseBody(req, ExportBody, 4096);
  assertRange("from", body.from, body.to);
  const { id } = await createAuditExport(readerOf(session), body);
  return json({ id, status: "pending" }, { status: 202 });
});

/** The tenant's exports, newest first, with each one's manifest once it is ready. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  const q = parseQuery(req, ExportsQuery);
  const page = await listAuditExports(readerOf(session), q);
  return pageResponse(page);
});
