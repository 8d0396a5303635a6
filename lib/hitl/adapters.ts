import canonicalize from "canonicalize";
import { and, desc, eq, sql } from "drizzle-orm";
import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { DomainError, errors, NotFoundError } from "@/lib/errors";
import type { AdapterInfo } from "./contract";
import { type SlaPolicy, toSlaPolicy } from "./sla";
import type { Upcaster } from "./upcasters";
import { assertUsableSchema } from "./validation";

// Adapters: what kind of decision a case asks for. Each has JSON Schemas in the tenant's
// registry (several versions, one active) and a formatter that turns a payload into the one
// line a reviewer sees in the inbox.

type JsonSchema = Record<string, unknown>;

const str = (maxLength = 4000) => ({ type: "string", minLength: 1, maxLength });
const strList = (maxItems = 50) => ({ type: "array", items: str(1000), maxItems });

function objectSchema(title: string, properties: Record<string, unknown>, required: string[]): JsonSchema {
  return { type: "object", title, properties, required, additionalProperties: false };
}

const lgvProperties = {
  symptom: str(),
  site: str(200),
  lgv_id: str(100),
  services_checked: strList(),
  connection_path: str(1000),
  evidence: {
    type: "array",
    maxItems: 50,
    items: {
      type: "object",
      properties: { source: str(500), observation: str(4000), at: str(100) },
      required: ["source", "observation"],
      additionalProperties: false,
    },
  },
  missing_data: strList(),
};
const lgvRequired = ["symptom", "site", "lgv_id", "services_checked", "evidence"];

/** Version 1 of each built-in adapter: what a tenant starts with, active. */
export const DEFAULT_ADAPTER_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  lgv_troubleshooting: objectSchema(
    "LGV troubleshooting: a proposed next action on a laser-guided vehicle",
    { ...lgvProperties, proposed_next_action: str() },
    [...lgvRequired, "proposed_next_action"],
  ),
  plan_approval: objectSchema(
    "Plan approval: the agent's plan before it runs",
    {
      plan: str(20_000),
      steps: { type: "array", items: str(2000), maxItems: 100 },
      estimated_cost: { type: "number", minimum: 0 },
      risk: { enum: ["low", "medium", "high"] },
    },
    ["plan"],
  ),
  tool_execution: objectSchema(
    "Tool execution: a tool call that needs consent",
    {
      tool: str(200),
      arguments: { type: "object" },
      rationale: str(),
      risk: { enum: ["low", "medium", "high"] },
    },
    ["tool", "arguments"],
  ),
  subagent_spawn: objectSchema(
    "Sub-agent spawn: delegating a task to another agent",
    { agent: str(200), task: str(), rationale: str(), budget: { type: "number", minimum: 0 } },
    ["agent", "task"],
  ),
  critical_decision: objectSchema(
    "Critical decision: a choice the agent must not make alone",
    {
      question: str(),
      options: { type: "array", items: str(2000), minItems: 1, maxItems: 20 },
      recommendation: str(2000),
      rationale: str(),
      risk: { enum: ["low", "medium", "high"] },
    },
    ["question", "options"],
  ),
  final_review: objectSchema(
    "Final review: the output before it is released",
    { output: str(100_000), sources: strList(200), confidence: { type: "number", minimum: 0, maximum: 1 } },
    ["output"],
  ),
};

export const DEFAULT_ADAPTERS = Object.keys(DEFAULT_ADAPTER_SCHEMAS);

/**
 * Later versions of built-in adapters, from version 2 on. A tenant keeps version 1 active until
 * an admin activates one of these (activating version 2 adds it to the tenant's registry).
 */
const LATER_BUILT_IN_VERSIONS: Readonly<Record<string, readonly JsonSchema[]>> = {
  // v2 names the field for what it is: the action the agent recommends to the reviewer.
  lgv_troubleshooting: [
    objectSchema(
      "LGV troubleshooting: a recommended next action on a laser-guided vehicle",
      { ...lgvProperties, recommended_action: str() },
      [...lgvRequired, "recommended_action"],
    ),
  ],
};

/** The built-in schema of an adapter's version, if the code defines one. */
function builtInSchema(adapter: string, version: number): JsonSchema | undefined {
  if (!Object.hasOwn(DEFAULT_ADAPTER_SCHEMAS, adapter)) return undefined;
  return version === 1 ? DEFAULT_ADAPTER_SCHEMAS[adapter] : LATER_BUILT_IN_VERSIONS[adapter]?.[version - 2];
}

const renameField =
  (from: string, to: string): Upcaster =>
  (payload) => {
    if (!(from in payload) || to in payload) return payload;
    const { [from]: value, ...rest } = payload;
    return { ...rest, [to]: value };
  };

/**
 * How the built-in adapters' payloads read as their next version, by adapter and the version
 * read from (consulted by upcastPayload; an upcaster registered in code for the same step wins).
 */
export const BUILT_IN_UPCASTERS: Readonly<Record<string, Readonly<Record<number, Upcaster>>>> = {
  lgv_troubleshooting: { 1: renameField("proposed_next_action", "recommended_action") },
};

const SUMMARY_CHARS = 280;

/** Text on one line, at most `limit` characters (an ellipsis marks a cut). */
export function clip(text: string, limit = SUMMARY_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

const field = (payload: Record<string, unknown>, key: string): string => {
  const value = payload[key];
  return typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
};

type Summarizer = (payload: Record<string, unknown>) => string;

export const SUMMARIZERS: Readonly<Record<string, Summarizer>> = {
  lgv_troubleshooting: (p) =>
    `LGV ${field(p, "lgv_id")} at ${field(p, "site")}: ${field(p, "symptom")} → ${field(p, "recommended_action") || field(p, "proposed_next_action")}`,
  plan_approval: (p) => {
    const steps = Array.isArray(p.steps) ? ` (${p.steps.length} steps)` : "";
    return `Plan${steps}: ${field(p, "plan")}`;
  },
  tool_execution: (p) => `Run tool ${field(p, "tool")}${p.risk ? ` [${field(p, "risk")} risk]` : ""}`,
  subagent_spawn: (p) => `Spawn ${field(p, "agent")}: ${field(p, "task")}`,
  critical_decision: (p) => {
    const options = Array.isArray(p.options) ? ` (${p.options.length} options)` : "";
    return `Decide${options}: ${field(p, "question")}`;
  },
  final_review: (p) => `Review output: ${field(p, "output")}`,
};

/** The reviewer's one line for a payload; an adapter without a formatter shows its name. */
export function summarize(adapter: string, payload: Record<string, unknown>): string {
  const summarizer = SUMMARIZERS[adapter];
  return clip(summarizer ? summarizer(payload) : `${adapter} case`);
}

const reg = schema.hitlSchemaRegistry;
export type AdapterSchemaRow = typeof reg.$inferSelect;

/** Serializes registry writes of one tenant: version numbers and the active flag stay consistent. */
async function lockRegistry(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`hitl_registry:${tenantId}`}))`);
}

/** Makes a stored version the active one (the previous active one is kept, inactive) and stamps when. */
async function activateRowIn(tx: Tx, adapter: string, row: AdapterSchemaRow): Promise<AdapterSchemaRow> {
  if (row.active) return row;
  await tx
    .update(reg)
    .set({ active: false, updatedAt: Date.now() })
    .where(and(eq(reg.adapter, adapter), eq(reg.active, true)));
  const [activated] = await tx
    .update(reg)
    .set({ active: true, activatedAt: Date.now(), updatedAt: Date.now() })
    .where(eq(reg.id, row.id))
    .returning();
  return activated;
}

async function newestVersionIn(tx: Tx, tenantId: string, adapter: string): Promise<AdapterSchemaRow | undefined> {
  const [newest] = await tx
    .select()
    .from(reg)
    .where(and(eq(reg.tenantId, tenantId), eq(reg.adapter, adapter)))
    .orderBy(desc(reg.version))
    .limit(1);
  return newest;
}

/**
 * Adds a schema version for an adapter (the next number) and, with `activate`, makes it the
 * one new cases are validated against. Returns the stored row. Registering the schema the
 * latest version already has adds nothing and returns that version, so a retried call (after a
 * timeout, say) does not pile up identical versions. A schema that does not compile, or whose
 * patterns RE2 cannot run or could backtrack catastrophically, is refused before anything is
 * written (see validation.ts).
 */
export async function registerAdapterVersion(
  scope: TenantScope,
  adapter: string,
  jsonSchema: JsonSchema,
  options: { activate?: boolean; version?: number } = {},
): Promise<AdapterSchemaRow> {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(adapter)) {
    throw errors.invalidField("adapter_id", "An adapter name is lower_snake_case, at most 64 characters.");
  }
  await assertUsableSchema(jsonSchema);
  return withTenant(scope, async (tx) => {
    await lockRegistry(tx, scope.tenantId);
    await materializeDefaultIn(tx, scope.tenantId, adapter);
    const newest = await newestVersionIn(tx, scope.tenantId, adapter);
    if (options.version !== undefined) {
      const same = await pinnedVersionIn(tx, adapter, options.version, newest?.version ?? 0, jsonSchema);
      if (same) return options.activate ? activateRowIn(tx, adapter, same) : same;
    }
    if (options.version === undefined && newest && canonicalize(newest.jsonSchema) === canonicalize(jsonSchema)) {
      return options.activate ? activateRowIn(tx, adapter, newest) : newest;
    }
    if (options.activate) {
      await tx
        .update(reg)
        .set({ active: false, updatedAt: Date.now() })
        .where(and(eq(reg.adapter, adapter), eq(reg.active, true)));
    }
    const now = Date.now();
    const [row] = await tx
      .insert(reg)
      .values({
        tenantId: scope.tenantId,
        adapter,
        version: (newest?.version ?? 0) + 1,
        jsonSchema,
        active: Boolean(options.activate),
        createdAt: now,
        activatedAt: options.activate ? now : null,
        updatedAt: now,
      })
      .returning();
    return row;
  });
}

/**
 * A caller that names the version (the design's register_adapter_schema): the same schema under
 * a stored number is a retry (returns that row); another schema under it is refused; a new
 * number must be the next one, so versions stay 1, 2, 3… without gaps.
 */
async function pinnedVersionIn(
  tx: Tx,
  adapter: string,
  version: number,
  newest: number,
  jsonSchema: JsonSchema,
): Promise<AdapterSchemaRow | null> {
  const [stored] = await tx
    .select()
    .from(reg)
    .where(and(eq(reg.adapter, adapter), eq(reg.version, version)));
  if (stored) {
    if (canonicalize(stored.jsonSchema) === canonicalize(jsonSchema)) return stored;
    throw new DomainError(
      "conflict",
      "SCHEMA_VERSION_EXISTS",
      `${adapter} version ${version} is registered with a different schema; register it as version ${newest + 1}.`,
      { adapter_id: adapter, schema_version: version, next_version: newest + 1 },
    );
  }
  if (version !== newest + 1) {
    throw errors.invalidField("schema_version", `The next version of ${adapter} is ${newest + 1}.`);
  }
  return null;
}

/**
 * Makes one stored version the active one; activating the version that is already active
 * changes nothing. A later built-in version (lgv_troubleshooting 2) the tenant does not have yet
 * is added first, when it is the next number, so its upcaster applies to it.
 */
export async function activateAdapterVersion(
  scope: TenantScope,
  adapter: string,
  version: number,
): Promise<AdapterVersionInfo> {
  return withTenant(scope, async (tx) => {
    await lockRegistry(tx, scope.tenantId);
    let [target] = await tx
      .select()
      .from(reg)
      .where(and(eq(reg.adapter, adapter), eq(reg.version, version)));
    const builtIn = builtInSchema(adapter, version);
    if (!target && builtIn && version > 1) {
      await materializeDefaultIn(tx, scope.tenantId, adapter);
      if ((await newestVersionIn(tx, scope.tenantId, adapter))?.version === version - 1) {
        [target] = await tx
          .insert(reg)
          .values({
            tenantId: scope.tenantId,
            adapter,
            version,
            jsonSchema: builtIn,
            createdAt: Date.now(),
            updatedAt: Date.now(),
          })
          .returning();
      }
    }
    if (!target) throw new NotFoundError("Adapter version", { adapter_id: adapter, schema_version: version });
    return versionInfo(await activateRowIn(tx, adapter, target));
  });
}

/**
 * Seeds the built-in adapters for a tenant: version 1 of each, active, unless the tenant
 * already has a version of it. Idempotent.
 */
export async function registerDefaultAdapters(scope: TenantScope): Promise<{ added: string[] }> {
  return withTenant(scope, async (tx) => {
    const existing = await tx.selectDistinct({ adapter: reg.adapter }).from(reg);
    const have = new Set(existing.map((r) => r.adapter));
    const missing = DEFAULT_ADAPTERS.filter((a) => !have.has(a));
    if (missing.length > 0) {
      const now = Date.now();
      await tx
        .insert(reg)
        .values(
          missing.map((adapter) => ({
            tenantId: scope.tenantId,
            adapter,
            version: 1,
            jsonSchema: DEFAULT_ADAPTER_SCHEMAS[adapter],
            active: true,
            createdAt: now,
            activatedAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    return { added: missing };
  });
}

/**
 * A built-in adapter the tenant has never used gets its version 1 on first use, so every
 * tenant (including ones created after the seed) has them without a provisioning step.
 */
async function materializeDefaultIn(tx: Tx, tenantId: string, adapter: string): Promise<void> {
  const builtIn = DEFAULT_ADAPTER_SCHEMAS[adapter];
  if (!builtIn) return;
  const [any] = await tx.select({ id: reg.id }).from(reg).where(eq(reg.adapter, adapter)).limit(1);
  if (any) return;
  const now = Date.now();
  await tx
    .insert(reg)
    .values({
      tenantId,
      adapter,
      version: 1,
      jsonSchema: builtIn,
      active: true,
      createdAt: now,
      activatedAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}

export async function activeSchemaIn(tx: Tx, tenantId: string, adapter: string): Promise<AdapterSchemaRow | undefined> {
  const select = () =>
    tx
      .select()
      .from(reg)
      .where(and(eq(reg.adapter, adapter), eq(reg.active, true)));
  const [row] = await select();
  if (row || !DEFAULT_ADAPTER_SCHEMAS[adapter]) return row;
  await materializeDefaultIn(tx, tenantId, adapter);
  return (await select())[0];
}

/** The active schema of an adapter and its SLA policy, in one read: what a submission needs. */
export async function adapterForSubmitIn(
  tx: Tx,
  tenantId: string,
  adapter: string,
): Promise<{ version: number; jsonSchema: JsonSchema; policy: SlaPolicy | null } | null> {
  const select = () =>
    tx
      .select({ version: reg.version, jsonSchema: reg.jsonSchema, policy: schema.hitlSlaPolicies })
      .from(reg)
      .leftJoin(schema.hitlSlaPolicies, eq(schema.hitlSlaPolicies.adapter, reg.adapter))
      .where(and(eq(reg.adapter, adapter), eq(reg.active, true)));
  let [row] = await select();
  if (!row && DEFAULT_ADAPTER_SCHEMAS[adapter]) {
    await materializeDefaultIn(tx, tenantId, adapter);
    [row] = await select();
  }
  if (!row) return null;
  return { version: row.version, jsonSchema: row.jsonSchema, policy: row.policy ? toSlaPolicy(row.policy) : null };
}

/** One stored schema version of an adapter, as listings show it. */
export interface AdapterVersionInfo {
  version: number;
  active: boolean;
  createdAt: number;
  /** When the version last became the active one (kept once it is deactivated; null: never active). */
  activatedAt: number | null;
}

const versionInfo = (row: Pick<AdapterSchemaRow, keyof AdapterVersionInfo>): AdapterVersionInfo => ({
  version: row.version,
  active: row.active,
  createdAt: row.createdAt,
  activatedAt: row.activatedAt,
});

/** An adapter with its stored versions (a built-in one the tenant has not used yet has none stored). */
export interface AdapterListing extends AdapterInfo {
  versionHistory: AdapterVersionInfo[];
}

/**
 * Every adapter a case can be submitted to: registered ones and the built-ins. With `detail`,
 * each also lists its stored versions with their creation and last activation times.
 */
export async function listAdapters(scope: TenantScope): Promise<AdapterInfo[]>;
export async function listAdapters(scope: TenantScope, options: { detail: true }): Promise<AdapterListing[]>;
export async function listAdapters(scope: TenantScope, options: { detail?: boolean } = {}): Promise<AdapterInfo[]> {
  return withTenant(scope, async (tx) => {
    const rows = await tx
      .select({
        adapter: reg.adapter,
        version: reg.version,
        active: reg.active,
        createdAt: reg.createdAt,
        activatedAt: reg.activatedAt,
      })
      .from(reg)
      .orderBy(reg.adapter, reg.version);
    const byName = new Map<string, AdapterListing>();
    for (const name of DEFAULT_ADAPTERS)
      byName.set(name, { adapter: name, activeVersion: 1, versions: [1], builtIn: true, versionHistory: [] });
    const seen = new Set<string>();
    for (const row of rows) {
      const info = byName.get(row.adapter) ?? {
        adapter: row.adapter,
        activeVersion: null,
        versions: [],
        builtIn: false,
        versionHistory: [],
      };
      if (!seen.has(row.adapter)) {
        seen.add(row.adapter);
        info.versions = [];
        info.activeVersion = null;
      }
      info.versions.push(row.version);
      info.versionHistory.push(versionInfo(row));
      if (row.active) info.activeVersion = row.version;
      byName.set(row.adapter, info);
    }
    const listed = [...byName.values()].sort((a, b) => a.adapter.localeCompare(b.adapter));
    return options.detail ? listed : listed.map(({ versionHistory: _, ...info }) => info);
  });
}

/** One version of an adapter's schema: stored, or a built-in one the tenant has not stored yet. */
export async function adapterSchemaVersion(
  scope: TenantScope,
  adapter: string,
  version: number,
): Promise<AdapterVersionInfo & { adapter: string; jsonSchema: JsonSchema }> {
  const row = await withTenant(scope, (tx) => schemaVersionIn(tx, adapter, version));
  if (row) return { adapter, ...versionInfo(row), jsonSchema: row.jsonSchema };
  const builtIn = builtInSchema(adapter, version);
  if (!builtIn) throw new NotFoundError("Adapter schema version", { adapter_id: adapter, schema_version: version });
  // Never stored: version 1 of a built-in is what the tenant uses until it registers another.
  return { adapter, version, active: version === 1, createdAt: 0, activatedAt: null, jsonSchema: builtIn };
}

export async function schemaVersionIn(tx: Tx, adapter: string, version: number): Promise<AdapterSchemaRow | undefined> {
  const [row] = await tx
    .select()
    .from(reg)
    .where(and(eq(reg.adapter, adapter), eq(reg.version, version)));
  return row;
}
