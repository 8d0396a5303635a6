import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { emit, runContextOf } from "@/lib/runs";
import { validateTexts } from "./constitution";
import { loadPrinciples, saveValidation, stableId } from "./records";

/**
 * The tenant's principles applied to a plan or a decision before a reviewer sees it (the
 * design's content_type plan and decision): the verdict is recorded and traced like an
 * answer's, and the texts come back revised where a principle requires it.
 */
export async function reviewAgainstPrinciples(
  config: LangGraphRunnableConfig,
  content: "plan" | "decision",
  texts: readonly string[],
): Promise<string[]> {
  const run = runContextOf(config);
  const { result, revised } = validateTexts(texts, await loadPrinciples(run), content);
  const applied = revised.some((t, i) => t !== texts[i]);
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
    },
  });
  return revised;
}
