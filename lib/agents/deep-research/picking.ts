import { phrasingTermsOf } from "@/lib/engine";
import type { ResearchLanguage } from "./contract";
import { extractInfo } from "./evidence";
import { taskTerms } from "./nodes/execute";
import { offlinePlan } from "./plan";
import { sentencesOf } from "./report";
import { answerFormTerms, questionTerms, uniqueTerms } from "./terms";

/**
 * The sentence the offline report shows of a passage that does not lead its task (report.ts):
 * the best of the finding a run's main task takes from it (its terms, the question's answer
 * form), with the sentence it points back to.
 * For measuring sentence picking without runs (bench/research-sentences.ts).
 */
export function offlineFindingOf(question: string, passage: string, language: ResearchLanguage): string[] {
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
    1,
    passage,
  );
}
