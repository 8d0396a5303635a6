import { phrasingTermsOf } from "@/lib/engine";
import type { ResearchLanguage } from "./contract";
import { extractInfo } from "./evidence";
import { taskTerms } from "./nodes/execute";
import { offlinePlan } from "./plan";
import { sentencesOf } from "./report";
import { answerFormTerms, questionTerms, uniqueTerms } from "./terms";

/**
 * The first `shown` sentences of the finding the offline engine takes from one passage for a
 * question, as a run's main task does (its terms, the question's answer form). The report shows
 * one of a passage that does not lead its task (report.ts); `shown` 1 measures that pick.
 * For measuring sentence picking without runs (bench/research-sentences.ts).
 */
export function offlineFindingOf(question: string, passage: string, language: ResearchLanguage, shown = 1): string[] {
  const t = questionTerms(question, language);
  const keyEntities = uniqueTerms([...t.entities, ...t.concepts]);
  const [main] = offlinePlan({
    original_query: question,
    detected_language: language,
    key_entities: keyEntities,
    scope: "",
    hitl_refinements: [],
    created_at: "",
    hash: "",
  });
  const terms = taskTerms(main, keyEntities, language);
  return sentencesOf(
    extractInfo(passage, terms, null, answerFormTerms(question), language, phrasingTermsOf(question, language)),
    shown,
    passage,
  );
}
