import { phrasingTermsOf } from "@/lib/engine";
import type { ResearchLanguage } from "./contract";
import { extractInfo } from "./evidence";
import { taskTerms } from "./nodes/execute";
import { offlinePlan } from "./plan";
import { SENTENCES_SHOWN, sentencesOf } from "./report";
import { answerFormTerms, questionTerms, uniqueTerms } from "./terms";

/**
 * The sentences the offline engine takes from one passage for a question, as a run's main task
 * does (its terms, the question's answer form) and as the offline report makes claims of them
 * for a passage of that tier (primary by default, as the answer's own paragraph mostly is).
 * For measuring sentence picking without runs (bench/research-sentences.ts).
 */
export function offlineFindingOf(
  question: string,
  passage: string,
  language: ResearchLanguage,
  tier: 1 | 2 | 3 = 1,
): string[] {
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
    SENTENCES_SHOWN[tier],
    passage,
  );
}
