import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import type { Engine } from "@/lib/engine";
import { askModel } from "./model-call";
import type { ToolSpec } from "./tools";

// Tool choice inside a step (design 000's ReAct "action"): with a model configured, the model
// picks the step's tool and its arguments from the tools the agent is authorised to use, with a
// typed output. What it picks is checked before it runs: a tool it is not authorised to use, or
// arguments the tool cannot take, is refused and the plan's own tool and arguments are used; the
// llm_call trace says which, and why.

const ToolChoice = z.object({
  tool: z.string().min(1).max(100),
  arguments: z
    .object({
      query: z.string().max(500).optional(),
      expression: z.string().max(500).optional(),
    })
    .strict(),
  reason: z.string().max(500),
});

/** What each tool a step may call takes: its one argument. Delegation is planned as its own step, not chosen here. */
const ARGUMENT_OF: Record<string, "query" | "expression"> = {
  knowledge_search: "query",
  literature_search: "query",
  calculator: "expression",
};

export interface ToolChoiceInput {
  goal: string;
  step: { description: string; tool: string; params: Record<string, unknown> };
  /** The tools the agent is authorised to use in this run (its enabled tools). */
  tools: readonly Pick<ToolSpec, "name" | "description">[];
}

export interface ChosenTool {
  tool: string;
  params: Record<string, unknown>;
  /** "model": the model's choice is used; "plan": the plan's (refused, failed, or the same). */
  by: "model" | "plan";
  note: string | null;
}

/** The tools a step may call here: authorised for the agent, and callable by a step. */
export const choosableTools = (tools: ToolChoiceInput["tools"]) =>
  tools.filter((t) => Object.hasOwn(ARGUMENT_OF, t.name));

/**
 * The step's tool and arguments as the model chooses them — or the plan's, when the call fails
 * or its choice is refused (the trace's outcome: "fallback" or "refused", with the reason).
 */
export async function chooseTool(
  config: LangGraphRunnableConfig,
  engine: Engine,
  input: ToolChoiceInput,
): Promise<ChosenTool> {
  const authorised = choosableTools(input.tools);
  const plan = { tool: input.step.tool, params: input.step.params };
  const listed = authorised.map((t) => `- ${t.name} (argument: ${ARGUMENT_OF[t.name]}): ${t.description}`).join("\n");
  const refusalOf = (choice: z.infer<typeof ToolChoice>): string | null => {
    const argument = ARGUMENT_OF[choice.tool];
    if (!authorised.some((t) => t.name === choice.tool))
      return `"${choice.tool}" is not among the authorised tools (${authorised.map((t) => t.name).join(", ") || "none"}); the plan's ${plan.tool} is used`;
    if (!choice.arguments[argument]?.trim())
      return `${choice.tool} needs its ${argument} and the model gave none; the plan's ${plan.tool} is used`;
    return null;
  };
  const answer = await askModel(
    config,
    engine,
    "tool_choice",
    {
      system:
        "Run step: act. Choose the one tool that carries out this step of the plan, from the authorised tools only, and its argument: a short search query, or an arithmetic expression for the calculator. Say why in one sentence.",
      prompt: `Goal: ${input.goal}\n\nStep: ${input.step.description}\n\nPlanned: ${plan.tool}(${JSON.stringify(plan.params)})\n\nAuthorised tools:\n${listed}`,
      schema: ToolChoice,
    },
    {
      onFailure: "fallback",
      extra: {
        step: input.step.description.slice(0, 200),
        planned: plan.tool,
        tools_authorized: authorised.map((t) => t.name),
      },
      refuse: refusalOf,
    },
  );
  if (!answer.ok) {
    const note = answer.refused
      ? `The model's tool choice was refused: ${answer.reason}.`
      : `The model's tool choice failed (${answer.reason}); the plan's ${plan.tool} is used.`;
    return { ...plan, by: "plan", note };
  }
  const { tool, arguments: args, reason } = answer.output;
  const argument = ARGUMENT_OF[tool];
  return { tool, params: { [argument]: args[argument]?.trim() }, by: "model", note: reason || null };
}
