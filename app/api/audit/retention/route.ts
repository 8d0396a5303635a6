import { z } from "zod";
import { cronScheduleError, retentionHistory, retentionPolicy, saveRetentionPolicy } from "@/lib/audit";
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN, type RetentionOverview } from "@/lib/audit/contract";
import { requireRole } from "@/lib/auth";
import { errors } from "@/lib/errors";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

const Days = z.number().int("Must be a whole number of days.").min(RETENTION_DAYS_MIN).max(RETENTION_DAYS_MAX);

/** The whole policy, under the Mode 3 design's column names. */
const PolicyInput = z.strictObject({
  checkpoint_retention_days: Days,
  execution_trace_retention_days: Days,
  snapshot_retention_days: Days,
  evidence_chain_retention_days: Days,
  phi_checkpoint_retention_days: Days,
  phi_trace_retention_days: Days,
  cleanup_enabled: z.boolean(),
  cleanup_cron_schedule: z.string().trim().min(9).max(120),
});

/** The tenant's retention policy (or the design's defaults), its latest runs and erasures. */
export const GET = route(async (req) => {
  const session = await requireRole(req, "admin");
  const [policy, history] = await Promise.all([retentionPolicy(session), retentionHistory(session)]);
  return json({ policy, ...history } satisfies RetentionOverview);
});

/** Saves the tenant's policy; the sweep and every later application follow it. */
export const PUT = route(async (req) => {
  const session = await requireRole(req, "admin");
  const input = await parseBody(req, PolicyInput);
  const cronError = cronScheduleError(input.cleanup_cron_schedule);
  if (cronError) throw errors.invalidField("cleanup_cron_schedule", cronError);
  const policy = await saveRetentionPolicy(
    { tenantId: session.tenantId, actorId: session.userId },
    {
      checkpointRetentionDays: input.checkpoint_retention_days,
      executionTraceRetentionDays: input.execution_trace_retention_days,
      snapshotRetentionDays: input.snapshot_retention_days,
      evidenceChainRetentionDays: input.evidence_chain_retention_days,
      phiCheckpointRetentionDays: input.phi_checkpoint_retention_days,
      phiTraceRetentionDays: input.phi_trace_retention_days,
      cleanupEnabled: input.cleanup_enabled,
      cleanupCronSchedule: input.cleanup_cron_schedule,
    },
  );
  return json({ policy });
});
