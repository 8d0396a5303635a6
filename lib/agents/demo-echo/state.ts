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

/**
 * What the approval interrupt accepts as an answer: a direct `{approved}` from the run's own
 * UI, or the decision of the HITL case that reviewed the plan (`{outcome}`).
 */
export const ApprovalDecision = z.union([
  z.object({ approved: z.boolean(), note: z.string().max(2000).optional() }),
  z
    .object({ outcome: z.enum(["approved", "rejected"]), reason: z.string().nullish() })
    .transform((d) => ({ approved: d.outcome === "approved", note: d.reason ?? undefined })),
]);
