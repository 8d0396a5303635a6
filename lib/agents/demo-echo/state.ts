import { Annotation } from "@langchain/langgraph";
import { z } from "zod";

/** The demo graph's input: echo a message, optionally after a human approves the plan. */
export const DemoEchoInput = z.object({
  message: z.string().min(1).max(4000),
  requireApproval: z.boolean().default(true),
  /** Pause between streamed words, to make streaming observable. */
  delayMs: z.number().int().min(0).max(200).default(0),
});
export type DemoEchoInput = z.infer<typeof DemoEchoInput>;

export const DemoEchoState = Annotation.Root({
  message: Annotation<string>(),
  requireApproval: Annotation<boolean>(),
  delayMs: Annotation<number>(),
  plan: Annotation<string>(),
  approved: Annotation<boolean>(),
  output: Annotation<string>(),
});
export type DemoEchoStateType = typeof DemoEchoState.State;
