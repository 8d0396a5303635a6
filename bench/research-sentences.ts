// Sentence picking alone, without runs: for every XQuAD question, the sentence the offline report
// takes from the answer's own paragraph when that passage does not lead its task (the best of the
// plan's main task's finding, with its terms and the question's answer form, and the sentence it
// points back to), and whether it holds the answer span. Seconds for all 612 questions a
// language, so a change to sentence scoring can be read before bench:research.
//
//   npx tsx --import ./scripts/server-only-node.mjs bench/research-sentences.ts
//   BENCH_MISSES=1 …   (also prints each miss: question, terms, picked and holding sentence)

import { offlineFindingOf } from "@/lib/agents";
import { splitSentences } from "@/lib/engine";
import { holdsAnswer, xquad, xquadPresent } from "./support/research-runs";

if (!xquadPresent()) throw new Error("XQuAD not found: set VIGIL_IR_DIR to the folder that holds xquad/");
for (const language of ["en", "de"] as const) {
  const { questions, paragraphs } = xquad(language);
  const textOf = new Map(paragraphs.map((p) => [p._id, p.text]));
  let held = 0;
  let noSentence = 0;
  for (const q of questions) {
    const paragraph = textOf.get(q.paragraph) ?? "";
    const picked = offlineFindingOf(q.question, paragraph, language);
    if (picked.some((s) => holdsAnswer(s, q.answers))) {
      held++;
      continue;
    }
    const holding = splitSentences(paragraph).find((s) => holdsAnswer(s.text, q.answers))?.text ?? null;
    if (!holding) noSentence++;
    if (process.env.BENCH_MISSES) console.info(JSON.stringify({ q: q.question, a: q.answers, picked, holding }));
  }
  console.info(
    `${language}: the picked sentences hold the answer for ${held} of ${questions.length} (${(held / questions.length).toFixed(3)}); no single sentence holds it for ${noSentence}`,
  );
}
