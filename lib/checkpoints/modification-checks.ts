import type { ModificationCheck } from "@/lib/hitl";
import { CHECKPOINT_TYPE_NAMES, type CheckpointTypeName } from "./contract";
import { CHECKPOINT_POLICIES } from "./policies";

/**
 * A reviewer's modifications to a checkpoint case may touch only what its type lets a person
 * edit (a plan's steps, a tool's parameters, the chosen option, the final text, the answer):
 * the rest of the request is what the agent found, and stays as it found it.
 */
export function checkpointModificationChecks(): Record<CheckpointTypeName, ModificationCheck> {
  const checks = {} as Record<CheckpointTypeName, ModificationCheck>;
  for (const type of CHECKPOINT_TYPE_NAMES) {
    const { editable } = CHECKPOINT_POLICIES[type];
    checks[type] = (modifications) =>
      Object.keys(modifications)
        .filter((key) => !editable.includes(key))
        .map((key) => ({
          path: `/${key}`,
          keyword: "editable",
          message: `is not editable at a ${type} checkpoint (editable: ${editable.join(", ")})`,
          params: { editable },
        }));
  }
  return checks;
}
