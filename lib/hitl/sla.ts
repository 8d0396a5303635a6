import { eq } from "drizzle-orm";
import { roleAtLeast } from "@/lib/access";
import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { errors } from "@/lib/errors";
import { DEFAULT_ADAPTER_SCHEMAS } from "./adapters";
import { HITL_SLA_CALENDARS, type HitlSlaCalendar } from "./contract";
import { hitlErrors } from "./errors";
import type { HitlActor } from "./types";

// Service levels per adapter. The due time is fixed when a case is submitted (a later policy
// change does not move existing deadlines), and the sweep escalates with explicit events.

const policies = schema.hitlSlaPolicies;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface SlaPolicy {
  adapter: string;
  dueHours: number;
  calendar: HitlSlaCalendar;
  /** A role (`reviewer`, `admin`) or a user id. */
  escalateTo: string;
  renotifyHours: number | null;
}

const isWeekend = (ms: number) => {
  const day = new Date(ms).getUTCDay();
  return day === 0 || day === 6;
};

/** `hours` after `start`, counting every hour (calendar) or only Monday to Friday, UTC (business). */
export function addSlaTime(start: number, hours: number, calendar: HitlSlaCalendar): number {
  if (calendar === "calendar") return start + hours * HOUR;
  let cursor = start;
  let remaining = hours * HOUR;
  while (remaining > 0) {
    const dayEnd = Math.floor(cursor / DAY) * DAY + DAY;
    if (isWeekend(cursor)) {
      cursor = dayEnd;
      continue;
    }
    const step = Math.min(remaining, dayEnd - cursor);
    cursor += step;
    remaining -= step;
  }
  return cursor;
}

export function dueAtFor(submittedAt: number, policy: Pick<SlaPolicy, "dueHours" | "calendar">): number {
  return addSlaTime(submittedAt, policy.dueHours, policy.calendar);
}

export function toSlaPolicy(row: typeof policies.$inferSelect): SlaPolicy {
  return {
    adapter: row.adapter,
    dueHours: row.dueHours,
    calendar: row.calendar,
    escalateTo: row.escalateTo,
    renotifyHours: row.renotifyHours ?? null,
  };
}

export async function slaPolicyIn(tx: Tx, adapter: string): Promise<SlaPolicy | null> {
  const [row] = await tx.select().from(policies).where(eq(policies.adapter, adapter));
  return row ? toSlaPolicy(row) : null;
}

export async function listSlaPolicies(scope: TenantScope): Promise<SlaPolicy[]> {
  return withTenant(scope, async (tx) => (await tx.select().from(policies).orderBy(policies.adapter)).map(toSlaPolicy));
}

function requireHours(field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 8760) {
    throw errors.invalidField(field, `${field} is a whole number of hours from 1 to 8760.`);
  }
  return value;
}

/** Sets (or replaces) an adapter's service level. Admins only; applies to cases submitted from now on. */
export async function setSlaPolicy(actor: HitlActor, input: SlaPolicy): Promise<SlaPolicy> {
  if (actor.role !== "system" && !roleAtLeast(actor.role, "admin")) throw hitlErrors.forbidden("set_sla_policy");
  const dueHours = requireHours("due_hours", input.dueHours);
  const renotifyHours =
    input.renotifyHours === null || input.renotifyHours === undefined
      ? null
      : requireHours("renotify_hours", input.renotifyHours);
  if (!HITL_SLA_CALENDARS.includes(input.calendar)) {
    throw errors.invalidField("calendar", `calendar is one of ${HITL_SLA_CALENDARS.join(", ")}.`);
  }
  if (typeof input.escalateTo !== "string" || input.escalateTo.trim() === "" || input.escalateTo.length > 200) {
    throw errors.invalidField("escalate_to", "escalate_to names a role or a user (at most 200 characters).");
  }
  const policy: SlaPolicy = { ...input, dueHours, renotifyHours };
  await withTenant(actor, async (tx) => {
    const [adapter] = await tx
      .select({ id: schema.hitlSchemaRegistry.id })
      .from(schema.hitlSchemaRegistry)
      .where(eq(schema.hitlSchemaRegistry.adapter, input.adapter))
      .limit(1);
    if (!adapter && !DEFAULT_ADAPTER_SCHEMAS[input.adapter]) throw hitlErrors.adapterNotFound(input.adapter);
    const values = {
      adapter: policy.adapter,
      dueHours,
      calendar: policy.calendar,
      escalateTo: policy.escalateTo,
      renotifyHours,
      updatedAt: Date.now(),
    };
    await tx
      .insert(policies)
      .values({ tenantId: actor.tenantId, ...values })
      .onConflictDoUpdate({ target: [policies.tenantId, policies.adapter], set: values });
  });
  return policy;
}
