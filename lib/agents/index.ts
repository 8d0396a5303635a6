import "server-only";

import type { Workflow } from "@/lib/runs";
import { answerReview } from "./answer-review/graph";
import { askExpert } from "./ask-expert/graph";
import { autonomous } from "./autonomous/graph";
import { deepResearch } from "./deep-research";
import { demoEcho } from "./demo-echo/graph";
import { sqlAnalyst } from "./sql/graph";

/** Every workflow this deployment can run: boot() installs them; nothing registers on import. */
export const WORKFLOWS: readonly Workflow[] = [demoEcho, askExpert, answerReview, autonomous, sqlAnalyst, deepResearch];
export { listPrinciples, PrinciplesBody, setPrinciples } from "./autonomous/principles";
export { listSteering, sendSteering } from "./autonomous/steering";
export { listAgentTools, listTools, setAgentTool, setTool, ToolSettings } from "./autonomous/tool-settings";
export { offlineFindingOf } from "./deep-research/picking";
export { reportMarkdown } from "./deep-research/report-markdown";
export { reportPdf } from "./deep-research/report-pdf";
export { followReferences as followResearchReferences } from "./deep-research/retrieval";
export {
  CONVERSATION_CLEANUP_SWEEP,
  cleanupConversations,
  startConversationCleanup,
} from "./sql/conversation-cleanup";
export { analystSettings } from "./sql/settings";
