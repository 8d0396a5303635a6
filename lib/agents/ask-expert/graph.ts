import { END, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { RunnableGraph, Workflow } from "@/lib/runs";
import { analyzeQuery } from "./nodes/analyze-query";
import { executeTools, hasChatTools } from "./nodes/execute-tools";
import { generate } from "./nodes/generate";
import { loadAgentProfile } from "./nodes/load-agent-profile";
import { loadHistory } from "./nodes/load-history";
import { loadSession } from "./nodes/load-session";
import { ragRetrieval } from "./nodes/rag-retrieval";
import { reviewGate } from "./nodes/review-gate";
import { saveMessage } from "./nodes/save-message";
import { updateSession } from "./nodes/update-session";
import { AskExpertInput, AskExpertState, type AskExpertStateType } from "./state";
import { keepStoppedAnswer } from "./stopped";

/**
 * One turn of a 1:1 consultation. Nodes read the tenant, run and starter from the run context
 * (never from the input); the session follows from the run's thread.
 */
export function buildAskExpert(checkpointer: BaseCheckpointSaver): RunnableGraph {
  return new StateGraph(AskExpertState)
    .addNode("load_session", loadSession)
    .addNode("load_agent_profile", loadAgentProfile)
    .addNode("load_history", loadHistory)
    .addNode("analyze_query", analyzeQuery)
    .addNode("rag_retrieval", ragRetrieval)
    .addNode("execute_tools", executeTools)
    .addNode("generate", generate)
    .addNode("review_gate", reviewGate)
    .addNode("save_message", saveMessage)
    .addNode("update_session", updateSession)
    .addEdge(START, "load_session")
    .addEdge("load_session", "load_agent_profile")
    .addEdge("load_agent_profile", "load_history")
    .addEdge("load_history", "analyze_query")
    .addEdge("analyze_query", "rag_retrieval")
    .addConditionalEdges("rag_retrieval", (state) => (hasChatTools(state) ? "execute_tools" : "generate"), [
      "execute_tools",
      "generate",
    ])
    .addEdge("execute_tools", "generate")
    .addEdge("generate", "save_message")
    .addEdge("save_message", "review_gate")
    .addEdge("review_gate", "update_session")
    .addEdge("update_session", END)
    .compile({ checkpointer });
}

export const askExpert: Workflow = {
  name: "ask-expert",
  input: AskExpertInput,
  privateToStarter: true,
  capped: true,
  answersChat: true,
  build: buildAskExpert,
  cancelled: keepStoppedAnswer,
  publicState(values) {
    const v = (values ?? {}) as Partial<AskExpertStateType>;
    return {
      sessionId: v.session?.sessionId ?? null,
      agent: v.agent ? { id: v.agent.id, slug: v.agent.slug, name: v.agent.name } : null,
      message: v.message ?? null,
      /** Messages remembered by the thread (user and assistant turns). */
      remembered: v.history?.length ?? 0,
      sources: v.sources ?? [],
      answer: v.answer ? { text: v.answer.text, citations: v.answer.citations, confidence: v.answer.confidence } : null,
      review: v.review ? { caseId: v.review.caseId, status: v.review.status } : null,
      messageId: v.messageId ?? null,
    };
  },
  finishMetadata(values) {
    const v = (values ?? {}) as Partial<AskExpertStateType>;
    return {
      sessionId: v.session?.sessionId ?? null,
      citations: v.answer?.citations ?? [],
      confidence: v.answer?.confidence ?? 0,
      engine: v.answer?.engine ?? null,
      model: v.answer?.model ?? null,
      ...(v.review ? { review: { caseId: v.review.caseId, status: v.review.status } } : {}),
    };
  },
};
