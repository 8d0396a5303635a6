import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { HitlActor, HitlCommandResult } from "@/lib/hitl";
import { submitCase } from "@/lib/hitl";
import type { SeededTenants } from "../support/seeded";

export const rid = (label = "req") => `${label}-${randomUUID()}`;

export function actors(tenants: SeededTenants, tenant: keyof SeededTenants = "demo") {
  const tenantId = tenants[tenant];
  const make = (userId: string, role: HitlActor["role"], name: string): HitlActor => ({ tenantId, userId, role, name });
  return {
    member: make(`${tenant}-member`, "member", "Erin Expert"),
    reviewer: make(`${tenant}-reviewer`, "reviewer", "Riley Reviewer"),
    admin: make(`${tenant}-admin`, "admin", "Avery Admin"),
    system: make("system", "system", "Vigil"),
  };
}

export const lgvPayload = (overrides: Record<string, unknown> = {}) => ({
  symptom: "LGV stops at the dock entrance and reports a navigation fault",
  site: "Lyon DC2",
  lgv_id: "LGV-07",
  services_checked: ["navigation", "wifi"],
  connection_path: "WMS -> fleet manager -> LGV-07",
  evidence: [{ source: "fleet manager log", observation: "NAV_LOST at 03:12" }],
  missing_data: ["reflector survey"],
  proposed_next_action: "Re-survey reflectors in aisle 4",
  ...overrides,
});

export async function submitLgv(actor: HitlActor, payload = lgvPayload()): Promise<HitlCommandResult> {
  return submitCase(actor, { adapter: "lgv_troubleshooting", payload, requestId: rid("submit") });
}

/** The DomainError (or NotFoundError) a promise rejects with. */
export async function refusal(
  work: Promise<unknown>,
): Promise<{ code?: string; kind?: string; details?: unknown; name: string }> {
  try {
    await work;
  } catch (error) {
    return error as { code?: string; kind?: string; details?: unknown; name: string };
  }
  expect.fail("expected a refusal, but the call succeeded");
}
