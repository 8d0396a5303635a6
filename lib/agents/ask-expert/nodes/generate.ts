import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { createEngineWithSelection } from "@/lib/engine";
import { emit } from "@/lib/runs";
import { passagesOf } from "../sources";
import type { AskExpertStateType, GeneratedAnswer } from "../state";

/**
 * Answers from the numbered sources, streaming the engine's raw text to the run (whose
 * thinking filter turns it into text and reasoning parts), and records the model call.
 */
export async function generate(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const agent = state.agent;
  if (!agent) throw new Error("load_agent_profile did not run");
  const { engine, selection } = createEngineWithSelection({
    agent: { model: agent.model, temperature: agent.temperature },
  });
  emit(config, { kind: "step", message: `${agent.name} is writing the answer` });
  const started = Date.now();
  const answer = engine.answer({
    question: state.message,
    agent: {
      name: agent.name,
      domain: agent.domain,
      systemPrompt: agent.systemPrompt,
      model: agent.model,
      temperature: agent.temperature,
    },
    passages: passagesOf(state.sources),
    history: state.conversation,
    analysis: state.analysis ?? undefined,
    retrieval: state.retrieval,
    signal: config.signal,
  });
  for await (const delta of answer.stream) emit(config, { kind: "text", delta });
  const result = await answer.result;
  const generated: GeneratedAnswer = {
    text: result.text,
    citations: result.citations,
    danglingCitations: result.danglingCitations,
    confidence: result.confidence,
    engine: result.engine,
    model: result.model,
    usage: result.usage ?? null,
    costUsd: result.costUsd,
    finishReason: result.finishReason,
  };
  emit(config, {
    kind: "trace",
    eventType: "llm_call",
    durationMs: Date.now() - started,
    payload: {
      purpose: "answer",
      engine: result.engine,
      model: result.model,
      override: selection.override,
      usage: result.usage ?? null,
      costUsd: result.costUsd,
      finishReason: result.finishReason,
      passages: state.sources.length,
      citations: result.citations,
      danglingCitations: result.danglingCitations,
      confidence: result.confidence,
    },
  });
  return { answer: generated };
}
