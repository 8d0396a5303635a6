import { z } from "zod";
import { isAlertRule, setAlertSetting } from "@/lib/audit";
import { ALERT_WINDOW_MAX_MINUTES } from "@/lib/audit/contract";
import { requireRole } from "@/lib/auth";
import { NotFoundError } from "@/lib/errors";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

const AlertSettingInput = z.strictObject({
  threshold: z.number().finite().min(0).max(1e12),
  window_minutes: z.number().int().min(1).max(ALERT_WINDOW_MAX_MINUTES),
  enabled: z.boolean(),
});

/** Admin: sets the tenant's threshold, window and switch for one rule, and answers the rule evaluated anew. */
export const PUT = route<{ params: Promise<{ rule: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const { rule } = await params;
  if (!isAlertRule(rule)) throw new NotFoundError("Alert rule", { rule });
  const body = await parseBody(req, AlertSettingInput, 4 * 1024);
  const alert = await setAlertSetting({ tenantId: session.tenantId, actorId: session.userId }, rule, {
    threshold: body.threshold,
    windowMinutes: body.window_minutes,
    enabled: body.enabled,
  });
  return json({ status: "success", alert });
});
