import { z } from "zod";
import { requireSession } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { type DecisionStatsBucket, decisionStats, STATS_BUCKETS } from "@/lib/hitl";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { assertRange, timeParam } from "../params";

/** A range may span at most this many buckets (the answer lists every one, empty ones included). */
const MAX_BUCKETS = 1000;
const WEEK_MS = 7 * 86_400_000;

const StatsQuery = z.strictObject({
  from: timeParam("start").optional(),
  to: timeParam("end").optional(),
  bucket: z.enum(Object.keys(STATS_BUCKETS) as [keyof typeof STATS_BUCKETS]).optional(),
});

const empty = (start: number): DecisionStatsBucket => ({
  start,
  submitted: 0,
  decided: 0,
  approved: 0,
  rejected: 0,
  approvalRate: null,
  rejectionRate: null,
});

/**
 * Throughput and approval/rejection rates per hour, day or week (UTC) over [from, to]: the last
 * seven days by day unless told otherwise. Buckets without events are listed with zeros.
 */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  const q = parseQuery(req, StatsQuery);
  const bucket = q.bucket ?? "day";
  const to = q.to ?? Date.now();
  const from = q.from ?? to - WEEK_MS;
  assertRange("from", from, to);
  const size = STATS_BUCKETS[bucket];
  const first = Math.floor(from / size) * size;
  const last = Math.floor(to / size) * size;
  const count = (last - first) / size + 1;
  if (count > MAX_BUCKETS) {
    throw errors.invalidField("bucket", `The range spans ${count} ${bucket} buckets; at most ${MAX_BUCKETS}.`);
  }
  const stats = await decisionStats(session, { from, to, bucket });
  const byStart = new Map(stats.buckets.map((b) => [b.start, b]));
  const buckets: DecisionStatsBucket[] = [];
  for (let start = first; start <= last; start += size) buckets.push(byStart.get(start) ?? empty(start));
  return json({ status: "success", from, to, bucket, buckets, totals: stats.totals });
});
