import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { GUIDE_DOMAIN, searchKnowledge } from "@/lib/rag";
import { emit, runContextOf } from "@/lib/runs";
import { analystModel, askAnalystModel, GeneralAnswer } from "../model";
import type { SqlAnalystStateType } from "../state";

/** The design's RAG agent for questions about using Vigil: the user guide's best passage, quoted. */
export async function answerFromGuide(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const scope = runContextOf(config);
  emit(config, { kind: "step", message: "Searching the user guide" });
  const found = await searchKnowledge(scope, { query: state.message, k: 1, domains: [GUIDE_DOMAIN] });
  const top = found.items[0];
  if (!top) return { final_answer: "The user guide has nothing on that. I answer questions about your data." };
  const passage = top.text
    .split(/(?<=[.!?])\s+/)
    .slice(0, 3)
    .join(" ");
  return { final_answer: `From the user guide (${top.title}): ${passage}` };
}

/**
 * The design's general agent: with a model, its short answer; offline (or when the model cannot
 * answer), what this expert is for.
 */
export async function answerGeneral(state: SqlAnalystStateType, config: LangGraphRunnableConfig) {
  const engine = analystModel(state.agent ?? null);
  if (engine) {
    const asked = await askAnalystModel(
      engine,
      config,
      "general",
      `Question: ${state.asked ?? state.message}`,
      GeneralAnswer,
    );
    if (asked.ok && asked.output.answer.trim()) return { final_answer: asked.output.answer.trim() };
  }
  return {
    final_answer:
      'I answer questions about your data by writing read-only SQL on your workspace\'s data source — for example "How many orders did each shipper deliver in 1997?" or "Top 5 customers by total invoice amount". For other topics, ask one of the other experts.',
  };
}
