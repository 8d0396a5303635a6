import { z } from "zod";
import { auditCharts } from "@/lib/audit";
import { CHART_RANGES, type ChartRange, DEFAULT_CHART_RANGE } from "@/lib/audit/contract";
import { requireRole } from "@/lib/auth";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";

const ChartsQuery = z.strictObject({
  days: z
    .enum(CHART_RANGES.map(String) as [string, ...string[]], { error: `Must be one of ${CHART_RANGES.join(", ")}.` })
    .transform((days) => Number(days) as ChartRange)
    .optional(),
});

/** The audit overview's charts over the last 7, 30 or 90 UTC days, for admins. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  const q = parseQuery(req, ChartsQuery);
  return json({ status: "success", ...(await auditCharts(session, q.days ?? DEFAULT_CHART_RANGE)) });
});
