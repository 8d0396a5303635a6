import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { HITL_SLA_CALENDARS, setSlaPolicy } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { actorOf, adapterFrom } from "../../params";

const hours = z.number().int().min(1).max(8760);

const SlaPolicyInput = z.strictObject({
  due_hours: hours,
  calendar: z.enum(HITL_SLA_CALENDARS),
  escalate_to: z.string().trim().min(1).max(200),
  renotify_hours: hours.nullable().optional(),
});

/** Admin: sets (or replaces) an adapter's service level; it applies to cases submitted from now on. */
export const PUT = route<{ params: Promise<{ adapter: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const adapter = await adapterFrom(params);
  const body = await parseBody(req, SlaPolicyInput, 16 * 1024);
  const policy = await setSlaPolicy(actorOf(session), {
    adapter,
    dueHours: body.due_hours,
    calendar: body.calendar,
    escalateTo: body.escalate_to,
    renotifyHours: body.renotify_hours ?? null,
  });
  return json({ status: "success", policy });
});
