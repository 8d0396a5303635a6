import { z } from "zod";
import { AUDIT_PAGE_MAX } from "@/lib/audit";
import { json } from "@/lib/http";
import { cursorParam, timeParam } from "../hitl/params";

// The audit lists' shared query and envelope: every list pages by `limit` and `cursor`, most
// filter by a `from`/`to` time range, and all answer `{status, count, items, next_cursor}`.

const limit = z
  .string()
  .regex(/^\d+$/, "Must be a whole number.")
  .transform(Number)
  .pipe(z.number().int().min(1).max(AUDIT_PAGE_MAX));

/** `limit` and `cursor`. */
export const pageQuery = { limit: limit.optional(), cursor: cursorParam.optional() };

/** `from` and `to`: epoch milliseconds or ISO dates (a date alone as `to` covers its day). */
export const rangeQuery = { from: timeParam("start").optional(), to: timeParam("end").optional() };

/** A list's query: its own filters, then the range and the page; unknown parameters are refused. */
export function auditListQuery<F extends z.ZodRawShape>(filters: F) {
  return z.strictObject({ ...filters, ...rangeQuery, ...pageQuery });
}

/** The list envelope every audit list answers with. */
export function pageResponse<T>(page: { items: T[]; nextCursor: string | null }): Response {
  return json({ status: "success", count: page.items.length, items: page.items, next_cursor: page.nextCursor });
}
