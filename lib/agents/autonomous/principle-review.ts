import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit, runContextOf } from "@/lib/runs";
import { validateTexts } from "./constitution";
import { runModelOf } from "./model-call";
import { judgeDraft } from "./principle-judgement";
import { loadPrinciples, saveValidation, stableId } from "./records";
import type { AutonomousStateType } from "./state";

/**
 * The tenant's principles applied to a plan or a decision before a reviewer sees it (the
 * design's content_type plan and decision): the verdict is recorded and traced like an
 * answer's, and the texts come back revised where a principle requires it. A judged principle
 * is judged by the run's model one text at a time (a step, an option), so each revision stays
 * with the text it revises; the mechanical checks then read the judged texts.
 */
export async function reviewAgainstPrinciples(
  config: LangGraphRunnableConfig,
  content: "plan" | "decision",
  texts: readonly string[],
  agent: AutonomousStateType["agent"] = null,
): Promise<string[]> {
  const run = runContextOf(config);
  const principles = await loadPrinciples(run);
  const engine = agent ? runModelOf(agent) : null;
  const judgements = [];
  for (const text of texts) judgements.push(await judgeDraft(config, engine, text, principles, content));
  const judgedTexts = judgements.map((j) => j.text);
  const { result, revised } = validateTexts(
    judgedTexts,
    principles,
    content,
    judgements.map((j) => j.verdicts),
  );
  const applied = revised.some((t, i) => t !== texts[i]);
  const judged = judgements.flatMap((j) => j.trace);
  const whole = texts.join("\n");
  await saveValidation(run, stableId(run.runId, content, whole), { type: content, text: whole }, result, applied);
  emit(config, {
    kind: "trace",
    eventType: "constitutional_check",
    payload: {
      contentType: content,
      isValid: result.isValid,
      severity: result.severity,
      violations: result.violations,
      revisionApplied: applied,
      principles: result.principlesChecked,
      ...(judged.length ? { judged } : {}),
    },
  });
  return revised;
}
