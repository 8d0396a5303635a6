import "server-only";

import type { Workflow } from "@/lib/runs";
import { answerReview } from "./answer-review/graph";
import { askExpert } from "./ask-expert/graph";
import { autonomous } from "./autonomous/graph";
import { demoEcho } from "./demo-echo/graph";

/** Every workflow this deployment can run: boot() installs them; nothing registers on import. */
export const WORKFLOWS: readonly Workflow[] = [demoEcho, askExpert, answerReview, autonomous];
// The autonomous workflow's pure parts, for their tests and the benchmark.
export { DEFAULT_PRINCIPLES, validateDraft } from "./autonomous/constitution";
export { evidenceConfidence, quoteFor } from "./autonomous/evidence";
export { weighOptions } from "./autonomous/nodes/decide";
export {
  candidatePlans,
  decisionOptionsIn,
  expressionIn,
  PLAN_SCORE_WEIGHTS,
  stepsForSteering,
} from "./autonomous/planner";
export { gateOf, safetyLevelOf } from "./autonomous/safety";
export { listSteering, sendSteering } from "./autonomous/steering";
export { listAgentTools, listTools, setAgentTool, setTool, ToolSettings } from "./autonomous/tool-settings";
export { agentTools, riskOfTool, type ToolSpec, tenantTools } from "./autonomous/tools";
