import { z } from "zod";
import { roleAtLeast } from "@/lib/access";
import { errors } from "@/lib/errors";
import { activateAdapterVersion, type HitlActor, registerAdapterVersion } from "@/lib/hitl";
import { defineTool } from "./tool";
import { requestId } from "./vocabulary";

// The adapter registry: which JSON Schema new cases of an adapter are validated against. The
// core's registry functions take a tenant scope and check no role, so the admin check is here.

function assertAdmin(actor: HitlActor, action: string): void {
  if (actor.role === "system" || !roleAtLeast(actor.role, "admin")) {
    throw errors.forbidden(`Only an admin may ${action}; this key's role is ${actor.role}.`);
  }
}

const adapterName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "An adapter name is lower_snake_case, at most 64 characters.")
  .describe("The adapter name, lower_snake_case.");

export const registerAdapterSchemaTool = defineTool({
  name: "register_adapter_schema",
  title: "Register an adapter schema version",
  description:
    "Admin only: stores a JSON Schema as the next version of an adapter (a new adapter starts at 1) and, with " +
    "activate, makes it the one new cases are validated against. Cases keep the version they were submitted " +
    "under. Each call stores a new version, even with a request_id seen before.",
  input: z.strictObject({
    adapter: adapterName,
    json_schema: z
      .record(z.string(), z.unknown())
      .describe('A JSON Schema (draft-07) for the payload, usually {"type":"object", …}.'),
    activate: z.boolean().optional().describe("Make this version the active one (false)."),
    request_id: requestId,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (actor, args) => {
    assertAdmin(actor, "register adapter schemas");
    const row = await registerAdapterVersion(actor, args.adapter, args.json_schema, { activate: args.activate });
    return {
      version: {
        adapter: row.adapter,
        version: row.version,
        active: row.active,
        jsonSchema: row.jsonSchema,
        createdAt: row.createdAt,
      },
    };
  },
});

export const activateAdapterSchemaTool = defineTool({
  name: "activate_adapter_schema",
  title: "Activate an adapter schema version",
  description:
    "Admin only: makes a stored version of an adapter the active one (the previous one is deactivated). " +
    "Activating the version that is already active changes nothing.",
  input: z.strictObject({
    adapter: adapterName,
    version: z.number().int().min(1),
    request_id: requestId,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (actor, args) => {
    assertAdmin(actor, "activate adapter schemas");
    await activateAdapterVersion(actor, args.adapter, args.version);
    return { adapter: args.adapter, active_version: args.version };
  },
});
