import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { createEngine } from "@/lib/engine";
import { emit } from "@/lib/runs";
import type { AskExpertStateType } from "../state";

export async function analyzeQuery(state: AskExpertStateType, config: LangGraphRunnableConfig) {
  const agent = state.agent;
  if (!agent) throw new Error("load_agent_profile did not run");
  const engine = createEngine({ agent: { model: agent.model, temperature: agent.temperature } });
  const started = Date.now();
  const analysis = await engine.analyzeQuery(state.message, {
    history: state.conversation,
    agent: { name: agent.name, domain: agent.domain },
    signal: config.signal,
  });
  if (analysis.usage) {
    emit(config, {
      kind: "trace",
      eventType: "llm_call",
      durationMs: Date.now() - started,
      payload: {
        purpose: "analyze_query",
        engine: engine.name,
        model: engine.model,
        usage: analysis.usage,
        costUsd: analysis.costUsd ?? null,
      },
    });
  }
  if (analysis.intent === "question")
    emit(config, { kind: "data", name: "route", id: "route", data: { route: "rag" } });
  else emit(config, { kind: "data", name: "route", id: "route", data: { route: "general" } });
  return { analysis };
}
