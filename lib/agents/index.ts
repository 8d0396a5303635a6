import { registerWorkflow } from "@/lib/runs";
import { askExpert } from "./ask-expert/graph";
import { AskExpertInput } from "./ask-expert/state";
import { demoEcho } from "./demo-echo/graph";
import { DemoEchoInput } from "./demo-echo/state";

// Every workflow this deployment can run, registered once on import. Input schemas validate a
// run's input before it is stored.
registerWorkflow(demoEcho);
registerWorkflow(askExpert);

export const WORKFLOW_INPUTS = { "demo-echo": DemoEchoInput, "ask-expert": AskExpertInput } as const;
export type WorkflowName = keyof typeof WORKFLOW_INPUTS;
