import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import type { HierarchyNode } from "./contract";

interface SpawnRow {
  id: string;
  parent_id: string | null;
  agent_id: string;
  agent_name: string;
  agent_level: string;
  task_description: string;
  task_status: string;
  hierarchy_depth: number;
  success: boolean | null;
  error_message: string | null;
  tools_used: string[];
  tokens_used: number;
  cost_usd: number | string;
  duration_seconds: number | null;
  spawned_at: Date | string;
}

/**
 * The run's sub-agent tree, walked by a recursive query from the spawns without a parent, so
 * a spawn whose parent is not in the run never shows up detached. Siblings keep their order.
 */
export async function hierarchyOf(tx: Tx, runId: string): Promise<HierarchyNode[]> {
  const rows = rowsOf<SpawnRow>(
    await tx.execute(sql`
      with recursive tree as (
        select h.*, array[h.sibling_order, extract(epoch from h.spawned_at)::float8] as path_key
        from sub_agent_hierarchy h where h.run_id = ${runId} and h.parent_id is null
        union all
        select c.*, tree.path_key || array[c.sibling_order, extract(epoch from c.spawned_at)::float8]
        from sub_agent_hierarchy c join tree on c.parent_id = tree.id
        where c.run_id = ${runId}
      )
      select id, parent_id, agent_id, agent_name, agent_level, task_description, task_status, hierarchy_depth,
        success, error_message, tools_used, tokens_used, cost_usd, duration_seconds, spawned_at
      from tree order by path_key`),
  );
  const byId = new Map<string, HierarchyNode>();
  const roots: HierarchyNode[] = [];
  // Ordered by path: every parent comes before its children, siblings in their order.
  for (const row of rows) {
    const node: HierarchyNode = {
      id: row.id,
      agentId: row.agent_id,
      agentName: row.agent_name,
      agentLevel: row.agent_level,
      taskDescription: row.task_description,
      taskStatus: row.task_status,
      depth: row.hierarchy_depth,
      success: row.success,
      errorMessage: row.error_message,
      toolsUsed: row.tools_used,
      tokensUsed: Number(row.tokens_used),
      costUsd: Number(row.cost_usd),
      durationSeconds: row.duration_seconds,
      spawnedAt: (row.spawned_at instanceof Date ? row.spawned_at : new Date(row.spawned_at)).toISOString(),
      children: [],
    };
    byId.set(row.id, node);
    const parent = row.parent_id ? byId.get(row.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
