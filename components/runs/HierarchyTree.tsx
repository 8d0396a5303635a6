import type { HierarchyNode } from "./api";
import { Chip, type Tone } from "./Badges";
import { formatTokens, formatUsd } from "./format";

const LEVEL_LABELS: Record<HierarchyNode["agentLevel"], string> = {
  l2_expert: "Expert",
  l3_specialist: "Specialist",
  l4_worker: "Worker",
  l5_tool: "Tool",
};

const STATUS_TONES: Record<HierarchyNode["taskStatus"], Tone> = {
  pending: "grey",
  running: "blue",
  completed: "green",
  failed: "red",
  cancelled: "grey",
};

function Node({ node, childrenOf }: { node: HierarchyNode; childrenOf: Map<string | null, HierarchyNode[]> }) {
  const children = childrenOf.get(node.id) ?? [];
  return (
    <li data-testid="hierarchy-node" data-depth={node.depth} data-level={node.agentLevel}>
      <div className="rounded-md border border-slate-200 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium [overflow-wrap:anywhere]">{node.agentName}</span>
          <Chip title="Level in the hierarchy">{LEVEL_LABELS[node.agentLevel]}</Chip>
          <Chip tone={STATUS_TONES[node.taskStatus]}>{node.taskStatus}</Chip>
        </div>
        <p
          className="mt-0.5 line-clamp-2 text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400"
          title={node.taskDescription}
        >
          {node.taskDescription}
        </p>
        <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
          {node.toolsUsed.length > 0 ? `Tools: ${node.toolsUsed.join(", ")}` : "No tools used"} ·{" "}
          {formatTokens(node.tokensUsed)} tokens · {formatUsd(node.costUsd)}
        </p>
      </div>
      {children.length > 0 && (
        <ul className="mt-2 ml-2 space-y-2 border-l border-slate-300 pl-2 sm:ml-3 sm:pl-3 dark:border-slate-700">
          {children.map((child) => (
            <Node key={child.id} node={child} childrenOf={childrenOf} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The agents working the run, each under the one that started it. */
export function HierarchyTree({ nodes }: { nodes: HierarchyNode[] }) {
  if (nodes.length === 0) return <p className="text-sm text-slate-500">No agent has started yet.</p>;
  const ids = new Set(nodes.map((n) => n.id));
  const childrenOf = new Map<string | null, HierarchyNode[]>();
  for (const node of [...nodes].sort((a, b) => a.siblingOrder - b.siblingOrder)) {
    // A node whose parent is not listed still shows, at the top.
    const parent = node.parentId && ids.has(node.parentId) ? node.parentId : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), node]);
  }
  return (
    <ul className="space-y-2" aria-label="Agent hierarchy">
      {(childrenOf.get(null) ?? []).map((node) => (
        <Node key={node.id} node={node} childrenOf={childrenOf} />
      ))}
    </ul>
  );
}
