import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { and, eq, or, sql } from "drizzle-orm";
import { schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { usableAgent } from "@/lib/experts";
import { runContextOf } from "@/lib/runs";
import type { HierarchyNode } from "../../contract";
import { emitAgent } from "../progress";
import { loadAgentToolOverrides, loadToolRegistry, saveHierarchyNode, stableId } from "../records";
import { safetyLevelOf } from "../safety";
import type { AutonomousStateType, RunAgent } from "../state";
import { agentTools, riskOfTool, tenantTools } from "../tools";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tenant's active agent a run names, by id or slug, in the caller's transaction; refused as not found otherwise. */
export async function runAgentIn(tx: Tx, ref: string): Promise<RunAgent & { defaultSafetyLevel: string }> {
  const a = schema.agents;
  const [row] = await tx
    .select()
    .from(a)
    .where(and(usableAgent(), UUID.test(ref) ? or(eq(a.id, ref), eq(a.slug, ref)) : eq(a.slug, ref)))
    .limit(1);
  if (!row) throw new NotFoundError("Agent", { agent_id: ref });
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    domain: row.domain,
    description: row.description,
    knowledgeDomains: row.knowledgeDomains,
    tools: row.tools,
    systemPrompt: row.systemPrompt,
    model: row.model,
    temperature: row.temperature,
    defaultSafetyLevel: row.defaultSafetyLevel,
  };
}

/** The starter's own chat session with this agent, where the run's answer is saved; not found otherwise. */
export async function ownSessionIn(tx: Tx, userId: string, sessionId: string, agentId: string): Promise<void> {
  const c = schema.chatSessions;
  const [row] = await tx
    .select({ id: c.id })
    .from(c)
    .where(and(eq(c.id, sessionId), eq(c.userId, userId), eq(c.agentId, agentId)));
  if (!row) throw new NotFoundError("Chat session", { session_id: sessionId });
}

export const findRunAgent = (scope: TenantScope, ref: string) => withTenant(scope, (tx) => runAgentIn(tx, ref));

export const rootNodeId = (runId: string) => stableId(runId, "root");

/** Loads the run's expert, the catalog it may delegate to and the tools it may use; opens the hierarchy at its root. */
export async function setup(state: AutonomousStateType, config: LangGraphRunnableConfig) {
  const run = runContextOf(config);
  const { defaultSafetyLevel, ...agent } = await findRunAgent(run, state.agentId);
  const a = schema.agents;
  const others = await withTenant(run, (tx) =>
    tx
      .select()
      .from(a)
      .where(and(usableAgent(), sql`${a.id} <> ${agent.id}`)),
  );
  const tools = agentTools(
    tenantTools(await loadToolRegistry(run)),
    agent.tools,
    await loadAgentToolOverrides(run, agent.id),
  ).map((t) => ({
    ...t,
    risk: riskOfTool(t),
  }));
  const root: HierarchyNode = {
    id: rootNodeId(run.runId),
    parentId: null,
    agentId: agent.id,
    agentName: agent.name,
    agentLevel: "l2_expert",
    taskDescription: state.goal.slice(0, 2000),
    taskStatus: "running",
    depth: 1,
    siblingOrder: 0,
    toolsUsed: [],
    tokensUsed: 0,
    costUsd: 0,
  };
  await saveHierarchyNode({ ...run }, { ...root, parentAgentId: null });
  emitAgent(config, root);
  return {
    agent,
    safetyLevel: state.safetyLevel ?? safetyLevelOf(defaultSafetyLevel as "low" | "medium" | "high"),
    experts: others.map((o) => ({
      id: o.id,
      slug: o.slug,
      name: o.name,
      domain: o.domain,
      description: o.description,
      knowledgeDomains: o.knowledgeDomains,
    })),
    tools,
    hierarchy: [root],
    startedAt: state.startedAt ?? Date.now(),
  };
}
