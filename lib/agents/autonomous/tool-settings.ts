import { z } from "zod";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { DATA_ACCESS_SCOPES, SEVERITIES, TOOL_CATEGORIES } from "../contract";
import { runAgentIn } from "./nodes/setup";
import { loadAgentToolOverrides, loadToolRegistry } from "./records";
import { toolTimeoutSeconds } from "./tool-timeout";
import { agentTools, BUILT_IN_TOOLS, riskOfTool, type ToolSpec, tenantTools } from "./tools";

/** A tool as the tools API shows it: what it touches, its risk as used, and whether it is on. */
export interface ToolView {
  name: string;
  description: string;
  category: ToolSpec["category"];
  risk_level: ToolSpec["risk_level"];
  data_access_scope: ToolSpec["data_access_scope"];
  external_api: boolean;
  enabled: boolean;
  /** The call's time limit in seconds: the tenant's for this tool, else the deployment's. */
  timeout_seconds: number;
  /** Whether `timeout_seconds` is the tenant's own setting (false: the deployment's default). */
  timeout_set: boolean;
}

const view = (tool: ToolSpec): ToolView => ({
  name: tool.name,
  description: tool.description,
  category: tool.category,
  risk_level: riskOfTool(tool),
  data_access_scope: tool.data_access_scope,
  external_api: tool.external_api,
  enabled: tool.enabled,
  timeout_seconds: tool.timeout_seconds ?? toolTimeoutSeconds(tool.name),
  timeout_set: tool.timeout_seconds != null,
});

/** `PUT /api/tools/{name}`: an admin's setting of a tool for the whole tenant (fields left out keep theirs). */
export const ToolSettings = z
  .object({
    category: z.enum(TOOL_CATEGORIES).optional(),
    risk_level: z.enum(SEVERITIES).optional(),
    data_access_scope: z.enum(DATA_ACCESS_SCOPES).optional(),
    external_api: z.boolean().optional(),
    enabled: z.boolean().optional(),
    /** This tool's time limit (1–3600 s); null goes back to the deployment's default. */
    timeout_seconds: z.number().int().min(1).max(3600).nullable().optional(),
  })
  .strict();

/** The tools this deployment can run for the tenant, as its registry sets them. */
export async function listTools(scope: TenantScope): Promise<ToolView[]> {
  return tenantTools(await loadToolRegistry(scope)).map(view);
}

export async function setTool(
  scope: TenantScope,
  by: string,
  name: string,
  settings: z.infer<typeof ToolSettings>,
): Promise<ToolView> {
  const current = (await listTools(scope)).find((t) => t.name === name);
  if (!current || !BUILT_IN_TOOLS.some((t) => t.name === name)) throw new NotFoundError("Tool", { tool_name: name });
  const row = {
    tenantId: scope.tenantId,
    toolName: name,
    category: settings.category ?? current.category,
    riskLevel: settings.risk_level ?? current.risk_level ?? "low",
    dataAccessScope: settings.data_access_scope ?? current.data_access_scope,
    externalApi: settings.external_api ?? current.external_api,
    enabled: settings.enabled ?? current.enabled,
    timeoutSeconds:
      settings.timeout_seconds !== undefined
        ? settings.timeout_seconds
        : current.timeout_set
          ? current.timeout_seconds
          : null,
    updatedBy: by,
    updatedAt: new Date(),
  };
  const t = schema.toolRegistry;
  await withTenant(scope, (tx) =>
    tx
      .insert(t)
      .values(row)
      .onConflictDoUpdate({ target: [t.tenantId, t.toolName], set: row }),
  );
  return (await listTools(scope)).find((x) => x.name === name) as ToolView;
}

/** One agent's tools: each the tenant has, and whether this agent may use it in an autonomous run. */
export async function listAgentTools(
  scope: TenantScope,
  agentRef: string,
): Promise<(ToolView & { granted: boolean })[]> {
  const agent = await withTenant(scope, (tx) => runAgentIn(tx, agentRef));
  const tools = tenantTools(await loadToolRegistry(scope));
  const usable = new Set(
    agentTools(tools, agent.tools, await loadAgentToolOverrides(scope, agent.id)).map((t) => t.name),
  );
  return tools.map((tool) => ({ ...view(tool), granted: usable.has(tool.name) }));
}

export async function setAgentTool(scope: TenantScope, by: string, agentRef: string, name: string, enabled: boolean) {
  if (!BUILT_IN_TOOLS.some((t) => t.name === name)) throw new NotFoundError("Tool", { tool_name: name });
  await withTenant(scope, async (tx) => {
    const agent = await runAgentIn(tx, agentRef);
    const a = schema.agentTools;
    const row = {
      tenantId: scope.tenantId,
      agentId: agent.id,
      toolName: name,
      enabled,
      updatedBy: by,
      updatedAt: new Date(),
    };
    await tx
      .insert(a)
      .values(row)
      .onConflictDoUpdate({ target: [a.tenantId, a.agentId, a.toolName], set: row });
  });
  return (await listAgentTools(scope, agentRef)).find((t) => t.name === name);
}
