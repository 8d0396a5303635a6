import { Chip, type Tone } from "@/components/runs/Badges";
import { formatTokens, formatUsd } from "@/components/runs/format";
import type { HierarchyNode } from "./api";

const STATUS_TONES: Record<string, Tone> = {
  pending: "grey",
  running: "blue",
  completed: "green",
  failed: "red",
  cancelled: "grey",
};

function Node({ node }: { node: HierarchyNode }) {
  return (
    <li data-testid="audit-hierarchy-node" data-depth={node.depth}>
      <div className="rounded-md border border-slate-200 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium [overflow-wrap:anywhere]">{node.agentName}</span>
          <Chip title="Level in the hierarchy">{node.agentLevel}</Chip>
          <Chip tone={STATUS_TONES[node.taskStatus] ?? "grey"}>{node.taskStatus}</Chip>
        </div>
        <p className="mt-0.5 text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
          {node.taskDescription}
        </p>
        {node.errorMessage && <p className="mt-0.5 text-xs text-red-700 dark:text-red-400">{node.errorMessage}</p>}
        <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
          {node.toolsUsed.length > 0 ? `Tools: ${node.toolsUsed.join(", ")}` : "No tools used"} ·{" "}
          {formatTokens(node.tokensUsed)} tokens · {formatUsd(node.costUsd)}
          {node.durationSeconds !== null && ` · ${node.durationSeconds} s`}
        </p>
      </div>
      {node.children.length > 0 && (
        <ul className="mt-2 ml-2 space-y-2 border-l border-slate-300 pl-2 sm:ml-3 sm:pl-3 dark:border-slate-700">
          {node.children.map((child) => (
            <Node key={child.id} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The agents that worked the run, each under the one that spawned it. */
export function AuditHierarchy({ roots }: { roots: HierarchyNode[] }) {
  if (roots.length === 0) return <p className="text-sm text-slate-500">This run spawned no agents.</p>;
  return (
    <ul aria-label="Sub-agent hierarchy" className="space-y-2">
      {roots.map((node) => (
        <Node key={node.id} node={node} />
      ))}
    </ul>
  );
}
