import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { saveAssistantMessage } from "@/lib/chat";
import { approveBySystem, awaitDecision } from "@/lib/checkpoints";
import {
  checkCitations,
  citedNumbers,
  composeDeliverable,
  createEngineWithSelection,
  type DeliverableStep,
  keywordsOf,
  type Passage,
  stem,
} from "@/lib/engine";
import { DomainError } from "@/lib/errors";
import { emit, type RunContext, runContextOf } from "@/lib/runs";
import { claimsOf } from "../claims";
import { validateDraft } from "../constitution";
import { evidenceOf } from "../evidence";
import { runModelOf } from "../model-call";
import { judgeDraft } from "../principle-judgement";
import { emitAgent, emitTodo, endingOf, historyEntry, reasonOf } from "../progress";
import { documentTitles, loadPrinciples, saveEvidence, saveHierarchyNode, saveValidation, stableId } from "../records";
import { answerEvidenceLevelOf, nodesExecutedOf } from "../run-summary";
import { gateOf } from "../safety";
import type { AutonomousStateType, AutonomousUpdate } from "../state";

const passagesOf = (state: AutonomousStateType): Passage[] =>
  state.sources.map((s) => ({
    n: s.n,
    chunkId: s.chunkId,
    documentId: s.documentId,
    title: s.title,
    section: null,
    page: null,
    text: s.text,
    score: s.score,
  }));

/** The source that best supports a label: the most of its words. */
function bestSourceFor(label: string, state: AutonomousStateType): number | null {
  const want = new Set(keywordsOf(label).map((k) => stem(k.toLowerCase())));
  let best: { n: number; hits: number } | null = null;
  for (const s of state.sources) {
    const have = new Set(keywordsOf(`${s.title} ${s.text}`).map((k) => stem(k.toLowerCase())));
    const hits = [...want].filter((t) => have.has(t)).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { n: s.n, hits };
  }
  return best?.n ?? null;
}

/** The plan's information-gathering steps as the deliverable's sections: what each asked and found, or why it found nothing. */
export function deliverableStepsOf(state: AutonomousStateType): DeliverableStep[] {
  return state.todo
    .filter((s) => s.kind === "delegate" || (s.kind === "tool" && s.tool !== "calculator"))
    .map((s) => {
      const observation = s.react.at(-1)?.observation ?? "";
      const expert = s.kind === "delegate" ? state.experts.find((e) => e.slug === s.agent) : undefined;
      const question = String(s.params?.query ?? s.params?.task ?? s.description);
      return {
        id: s.id,
        title: expert ? `What ${expert.name} (${expert.domain}) found` : `What the sources say on ${question}`,
        question: expert ? state.goal : question,
        found: s.status === "done" ? citedNumbers(observation) : [],
        ...(expert ? { expert: expert.name } : {}),
        failure: s.status === "done" ? null : (s.note ?? `the step was ${s.status}`),
      };
    });
}

/** Writes the answer from every source the run collected, the decision first when one was made. */
export async function draft(state: AutonomousStateType, config: LangGraphRunnableConfig): Promise<AutonomousUpdate> {
  const agent = state.agent;
  if (!agent) throw new Error("setup did not run");
  const { engine } = createEngineWithSelection({ agent: { model: agent.model, temperature: agent.temperature } });
  emit(config, { kind: "step", message: `${agent.name} is writing the answer` });
  const started = Date.now();
  if (engine.name === "offline") return offlineDeliverable(state, config, started);
  const result = await engine.answer({
    question: state.goal,
    agent: { name: agent.name, domain: agent.domain, systemPrompt: agent.systemPrompt },
    passages: passagesOf(state),
    signal: config.signal,
  }).result;
  const chosen = state.decision
    ? (state.decision.options.find((o) => o.id === state.decision?.chosen)?.label ?? state.decision.chosen)
    : null;
  const support = chosen ? bestSourceFor(chosen, state) : null;
  const heading = chosen ? `### Decision: ${chosen}${support ? ` [${support}]` : ""}\n\n` : "";
  // What the calculator worked out is the run's own finding, listed with the answer.
  const calculations = state.todo
    .filter((step) => step.tool === "calculator" && step.status === "done")
    .flatMap((step) => step.react.map((r) => r.observation).filter((o): o is string => Boolean(o)));
  // Each specialist's findings, in brief and with their citations: the experts the plan asked.
  const consulted = state.todo
    .filter((step) => step.kind === "delegate" && step.status === "done")
    .map((step) => {
      const observation = step.react.at(-1)?.observation ?? "";
      const [who, said] = observation.split(/ reports: /, 2);
      const brief = claimsOf(said ?? "")
        .filter((c) => c.kind === "sentence" && c.citations.length > 0)
        .slice(0, 2)
        .map((c) => `${c.text} ${c.citations.map((n) => `[${n}]`).join("")}`);
      return brief.length ? `- **${who}:** ${brief.join(" ")}` : null;
    })
    .filter((line): line is string => line !== null);
  const experts = consulted.length ? `\n\n### From the experts consulted\n${consulted.join("\n")}` : "";
  const worked = calculations.length ? `\n\n### Calculations\n${calculations.map((c) => `- ${c}`).join("\n")}` : "";
  const tokens = result.usage ? result.usage.inputTokens + result.usage.outputTokens : 0;
  emit(config, {
    kind: "trace",
    eventType: "llm_call",
    durationMs: Date.now() - started,
    payload: {
      purpose: "answer",
      engine: result.engine,
      model: result.model,
      passages: state.sources.length,
      citations: result.citations,
      ...(result.usage ? { tokensIn: result.usage.inputTokens, tokensOut: result.usage.outputTokens } : {}),
      costUsd: result.costUsd,
    },
  });
  const todo = synthesisDone(state, config);
  return {
    todo,
    current: null,
    draft: {
      text: `${heading}${result.text}${experts}${worked}`,
      confidence: result.confidence,
      engine: result.engine,
      model: result.model,
    },
    engine: result.engine,
    usage: { tokens: state.usage.tokens + tokens, costUsd: state.usage.costUsd + (result.costUsd ?? 0) },
  };
}

/**
 * The offline engine's answer to a goal: a section per plan step, each answering the step's
 * sub-question from what the step found, the decision with its options and evidence, and what
 * could not be supported (lib/engine composeDeliverable).
 */
function offlineDeliverable(
  state: AutonomousStateType,
  config: LangGraphRunnableConfig,
  started: number,
): AutonomousUpdate {
  const chosen = state.decision?.chosen ?? null;
  const calculations = state.todo
    .filter((step) => step.tool === "calculator" && step.status === "done")
    .flatMap((step) => step.react.map((r) => r.observation).filter((o): o is string => Boolean(o)));
  const deliverable = composeDeliverable({
    goal: state.goal,
    steps: deliverableStepsOf(state),
    passages: passagesOf(state),
    decision:
      state.decision && chosen
        ? {
            options: state.decision.options,
            chosen,
            byReviewer: state.decision.chosen !== state.decision.recommended,
          }
        : null,
    calculations,
  });
  emit(config, {
    kind: "trace",
    eventType: "llm_call",
    durationMs: Date.now() - started,
    payload: {
      purpose: "answer",
      engine: "offline",
      model: "extractive",
      passages: state.sources.length,
      citations: deliverable.citations,
      claims: deliverable.claims.length,
      unsupported: deliverable.unsupported.length,
      costUsd: 0,
    },
  });
  const todo = synthesisDone(state, config);
  return {
    todo,
    current: null,
    draft: {
      text: deliverable.text,
      confidence: deliverable.confidence,
      engine: "offline",
      model: "extractive",
      unsupported: deliverable.unsupported.map((u) => `${u.part}: ${u.reason}`),
    },
    engine: "offline",
  };
}

/** The answer's claims that cite a source the run has. */
export const supportedClaimsOf = (text: string, known: number[]) =>
  claimsOf(text).filter((c) => c.kind !== "heading" && c.citations.some((n) => known.includes(n))).length;

/** Constitutional validation of the draft against the tenant's principles; a required revision is applied. */
export async function validate(state: AutonomousStateType, config: LangGraphRunnableConfig): Promise<AutonomousUpdate> {
  const run = runContextOf(config);
  const text = state.draft?.text ?? "";
  const principles = await loadPrinciples(run);
  // Judged principles first, by the run's model: the mechanical checks then read its revision.
  const judged = await judgeDraft(config, state.agent ? runModelOf(state.agent) : null, text, principles);
  const result = validateDraft(judged.text, principles, {
    confidence: state.draft?.confidence ?? 0,
    knownCitations: state.sources.map((s) => s.n),
    judged: judged.verdicts,
  });
  const applied = result.requiresRevision && result.suggestedRevision !== null;
  await saveValidation(run, stableId(run.runId, "response", text), { type: "response", text }, result, applied);
  emit(config, {
    kind: "trace",
    eventType: "constitutional_check",
    payload: {
      isValid: result.isValid,
      severity: result.severity,
      violations: result.violations,
      revisionApplied: applied,
      principles: result.principlesChecked,
      ...(judged.trace.length ? { judged: judged.trace } : {}),
    },
  });
  const known = state.sources.map((s) => s.n);
  const revised = applied ? (result.suggestedRevision as string) : text;
  // A revision that leaves no cited claim leaves no answer: the run says so, and why, instead of
  // handing the reviewer a caveat as if it were one.
  const emptied = state.draft !== null && supportedClaimsOf(revised, known) === 0;
  const unsupported = [
    ...(state.draft?.unsupported ?? []),
    ...judged.notes,
    ...(emptied && supportedClaimsOf(text, known) > 0
      ? [`the constitutional revision removed every cited claim (${result.violations.join("; ")})`]
      : []),
  ];
  const finalText = emptied
    ? [
        "### No supported answer",
        "- The run could not produce an answer its sources support; nothing below is a finding.",
        ...unsupported.map((u) => `- ${u}`),
        ...(unsupported.length === 0 ? ["- No step found a passage that speaks to the goal."] : []),
      ].join("\n\n")
    : revised;
  return {
    validations: [
      { isValid: result.isValid, severity: result.severity, violations: result.violations, revisionApplied: applied },
    ],
    ...(state.draft && (applied || emptied || judged.notes.length > 0)
      ? { draft: { ...state.draft, text: finalText, unsupported, ...(emptied ? { confidence: 0 } : {}) } }
      : {}),
  };
}

/** Checkpoint 5: the reviewer may edit the answer; a rejection ends the run with the reason. */
export async function finalReview(
  state: AutonomousStateType,
  config: LangGraphRunnableConfig,
): Promise<AutonomousUpdate> {
  const draftText = state.draft?.text ?? "";
  const cited = citedNumbers(draftText);
  const last = state.validations.at(-1);
  const request = {
    response_text: draftText || "(no answer)",
    response_confidence: state.draft?.confidence ?? 0,
    citations: state.sources
      .filter((s) => cited.includes(s.n))
      .map((s) => ({ n: s.n, title: s.title, document_id: s.documentId, chunk_id: s.chunkId })),
    sources_used: state.sources.length,
    agents_involved: [...new Set(state.hierarchy.map((n) => n.agentName))],
    total_duration_seconds: Math.max(0, Math.round((Date.now() - (state.startedAt ?? Date.now())) / 1000)),
    total_cost_usd: state.usage.costUsd,
    nodes_executed: nodesExecutedOf(state),
    tools_used: [...new Set(state.hierarchy.flatMap((n) => n.toolsUsed))],
    sub_agents_spawned: state.hierarchy.filter((n) => n.depth > 1).length,
    evidence_level: answerEvidenceLevelOf(state, cited),
    constitutional_compliance: Boolean(last && (last.isValid || last.revisionApplied)),
    quality_checks_passed: last ? (last.isValid ? 1 : 0) + (last.revisionApplied ? 1 : 0) : 0,
    quality_checks_failed: last?.violations.length ?? 0,
    allow_edits: true,
    save_to_history: Boolean(state.sessionId),
    supported_claims: supportedClaimsOf(
      draftText,
      state.sources.map((s) => s.n),
    ),
    unsupported_parts: (state.draft?.unsupported ?? []).slice(0, 100).map((u) => u.slice(0, 2000)),
  };
  const gate = gateOf(state.safetyLevel ?? "balanced", "final_review");
  const known = state.sources.map((s) => s.n);
  if (!gate.ask) {
    const { caseId } = await approveBySystem(config, "final_review", request, {
      key: "final",
      reason: gate.reason,
      riskLevel: "medium",
    });
    return {
      checkpoints: [historyEntry(5, "final_review", { system: true, caseId, reason: gate.reason })],
      answer: {
        text: draftText,
        citations: cited.filter((n) => known.includes(n)),
        confidence: request.response_confidence,
        edited: false,
      },
    };
  }
  const decision = await awaitDecision(config, "final_review", request, {
    reasoning: "Review the answer before it is saved",
    timeoutSeconds: state.timeoutSeconds,
    safetyLevel: state.safetyLevel ?? "balanced",
    goal: state.goal,
  });
  const entry = historyEntry(5, "final_review", decision);
  if (decision.action === "reject") {
    return {
      checkpoints: [entry],
      outcome: { status: endingOf(decision), reason: reasonOf(decision) ?? "The answer was rejected." },
    };
  }
  const edited = decision.action === "edit" && typeof decision.edit.response_text === "string";
  // Every [n] of the saved answer names a source: numbers a reviewer wrote that name none are dropped.
  const text = edited ? checkCitations(decision.edit.response_text as string, known).text : draftText;
  return {
    checkpoints: [entry],
    answer: {
      text,
      citations: citedNumbers(text).filter((n) => known.includes(n)),
      confidence: request.response_confidence,
      edited,
    },
  };
}

/** Saves the outcome: the answer and its evidence chains, or the rejection; closes the hierarchy's root. */
export async function finish(state: AutonomousStateType, config: LangGraphRunnableConfig): Promise<AutonomousUpdate> {
  const run = runContextOf(config);
  const root = state.hierarchy[0];
  const rejected = state.outcome?.status === "rejected" || state.outcome?.status === "timed_out";
  const todo = state.todo.map((s) =>
    s.status === "pending" || s.status === "running" ? { ...s, status: "skipped" as const } : s,
  );
  let evidence = state.evidence;
  if (!rejected && state.answer) {
    const chosen = state.decision
      ? (state.decision.options.find((o) => o.id === state.decision?.chosen)?.label ?? state.decision.chosen)
      : null;
    evidence = evidenceOf(state.answer.text, state.sources, await documentTitles(run), chosen);
    await saveEvidence(run, state.goal, evidence);
    emit(config, { kind: "text", delta: state.answer.text });
  }
  if (state.sessionId) await saveToChat(state, run, rejected);
  const hierarchy = [...state.hierarchy];
  if (root) {
    hierarchy[0] = {
      ...root,
      taskStatus: rejected ? "cancelled" : "completed",
      tokensUsed: state.usage.tokens,
      costUsd: state.usage.costUsd,
    };
    await saveHierarchyNode(run, { ...hierarchy[0], parentAgentId: null });
    emitAgent(config, hierarchy[0]);
  }
  emitTodo(config, todo);
  emit(config, {
    kind: "step",
    message: rejected ? `Ended: ${state.outcome?.reason ?? "rejected"}` : "The answer is saved",
  });
  return {
    todo,
    hierarchy,
    evidence,
    outcome: state.outcome ?? { status: "completed", reason: null },
    finishedAt: Date.now(),
  };
}

/** A run started from a chat leaves its answer (or why it ended without one) in that chat. */
async function saveToChat(state: AutonomousStateType, run: RunContext, rejected: boolean): Promise<void> {
  const answer = state.answer;
  try {
    await saveAssistantMessage(run, {
      sessionId: state.sessionId as string,
      runId: run.runId,
      content:
        rejected || !answer
          ? `The autonomous run ended without an answer: ${state.outcome?.reason ?? "rejected"}`
          : answer.text,
      sources:
        rejected || !answer ? [] : state.sources.map((s) => ({ ...s, externalId: null, section: null, page: null })),
      citations: rejected || !answer ? [] : answer.citations,
      metadata: {
        confidence: answer?.confidence ?? 0,
        engine: state.engine ?? "offline",
        model: state.draft?.model ?? "",
        autonomousRunId: run.runId,
      },
    });
  } catch (error) {
    // The chat was deleted while the run worked: the run's own record keeps the answer.
    if (!(error instanceof DomainError && error.code === "CHAT_SESSION_GONE")) throw error;
  }
}

/** The to-do list with its synthesis step done, shown to the watcher. */
function synthesisDone(state: AutonomousStateType, config: LangGraphRunnableConfig) {
  const todo = state.todo.map((s) =>
    s.kind === "synthesize" && s.status !== "skipped" ? { ...s, status: "done" as const } : s,
  );
  emitTodo(config, todo);
  return todo;
}
