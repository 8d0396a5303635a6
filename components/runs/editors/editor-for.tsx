"use client";

import type { Editor } from "@/components/hitl/DecisionActions";
import type { CheckpointRequest } from "@/lib/checkpoints/contract";
import type { CheckpointPart } from "../api";
import { CaseModifyForm } from "./CaseModifyForm";
import { OptionPicker } from "./OptionPicker";
import { PlanStepsEditor } from "./PlanStepsEditor";
import { ToolParamsEditor } from "./ToolParamsEditor";

/**
 * How a reviewer changes a checkpoint before approving it, on the run page and in the inbox
 * alike: the plan's steps, the tool's parameters, the option to take; the generic form for the
 * rest. Null for a type nobody edits.
 */
export function editorFor(
  checkpoint: Pick<CheckpointPart, "caseId" | "type" | "request">,
  experts: { slug: string; name: string }[],
): Editor | null {
  const request = checkpoint.request;
  switch (checkpoint.type) {
    case "plan_approval":
      return (props) => (
        <PlanStepsEditor {...props} request={request as CheckpointRequest<"plan_approval">} experts={experts} />
      );
    case "tool_execution":
      return (props) => (
        <ToolParamsEditor {...props} parameters={(request.tool_parameters ?? {}) as Record<string, unknown>} />
      );
    case "critical_decision":
      return (props) => <OptionPicker {...props} request={request as CheckpointRequest<"critical_decision">} />;
    case "subagent_spawn":
    case "final_review":
      return (props) => <CaseModifyForm {...props} caseId={checkpoint.caseId} />;
    default:
      return null;
  }
}
