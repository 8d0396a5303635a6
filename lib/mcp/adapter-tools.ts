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

const adapterId = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "An adapter name is lower_snake_case, at most 64 characters.")
  .describe("The adapter name, lower_snake_case.");

const schemaVersion = z.number().int().min(1).describe("The schema's version number: 1, 2, 3…");

/** An adapter version as the registry's columns name it. */
function versionRecord(row: Awaited<ReturnType<typeof registerAdapterVersion>>) {
  return {
    adapter_id: row.adapter,
    schema_version: row.version,
    is_active: row.active,
    schema_json: row.jsonSchema,
    created_at_ms: row.createdAt,
    activated_at_ms: row.activatedAt,
    updated_at_ms: row.updatedAt,
  };
}

export const registerAdapterSchemaTool = defineTool({
  name: "register_adapter_schema",
  title: "Register an adapter schema version",
  description:
    "Admin only: stores a JSON Schema as version schema_version of an adapter (the next number: a new adapter " +
    "starts at 1) and, with activate, makes it the one new cases are validated against. Cases keep the version " +
    "they were submitted under. Registering the same schema under the same version again is a retry and " +
    "changes nothing; another schema under a stored version is SCHEMA_VERSION_EXISTS.",
  input: z.strictObject({
    adapter_id: adapterId,
    schema_version: schemaVersion,
    schema_json: z
      .record(z.string(), z.unknown())
      .describe('A JSON Schema (draft-07) for the payload, usually {"type":"object", …}.'),
    activate: z.boolean().optional().describe("Make this version the active one (false)."),
    request_id: requestId,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (actor, args) => {
    assertAdmin(actor, "register adapter schemas");
    const row = await registerAdapterVersion(actor, args.adapter_id, args.schema_json, {
      activate: args.activate,
      version: args.schema_version,
    });
    return { schema: versionRecord(row) };
  },
});

export const activateAdapterSchemaTool = defineTool({
  name: "activate_adapter_schema",
  title: "Activate an adapter schema version",
  description:
    "Admin only: makes a stored version of an adapter the active one (the previous one is deactivated). " +
    "Activating the version that is already active changes nothing.",
  input: z.strictObject({
    adapter_id: adapterId,
    schema_version: schemaVersion,
    request_id: requestId,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (actor, args) => {
    assertAdmin(actor, "activate adapter schemas");
    const info = await activateAdapterVersion(actor, args.adapter_id, args.schema_version);
    return { adapter_id: args.adapter_id, schema_version: args.schema_version, activated_at_ms: info.activatedAt };
  },
});
