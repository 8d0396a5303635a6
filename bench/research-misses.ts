// Why a research report misses an XQuAD answer span, sorted by cause (offline engine, PGlite in
// memory). For each question a run is made as bench:research makes it; a miss is put under the
// first cause that explains it:
//   not-gathered   — the answer's paragraph is in no context entry the run kept;
//   no-sentence    — the paragraph is kept but no single sentence of it (as split) holds the span
//                    (the span crosses a sentence cut, or is folded differently);
//   not-picked     — a sentence holds it but the picked one (the entry's first finding) does not;
//   dropped        — the picked finding holds it but the report does not (cut by the report's limits).
//
//   BENCH_XQUAD_QUESTIONS=200 BENCH_LANGUAGES=de npx tsx --import ./scripts/server-only-node.mjs bench/research-misses.ts
//   (BENCH_XQUAD_OFFSET=3 takes another sample of the same size, as bench:research does)
//
// Writes bench/results/research-misses-<language>.json with each miss, its cause, the picked
// sentence and the sentence that holds the span.

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { openDatabase, setActiveDatabase } from "@/lib/db";
import { splitSentences } from "@/lib/engine";
import { boot } from "@/lib/server";
import { drainTrace, stopTraceSequencer } from "@/lib/trace";
import { holdsAnswer, runResearch, sampleOf, xquad, xquadTenant } from "./support/research-runs";

const SIZE = Number(process.env.BENCH_XQUAD_QUESTIONS ?? 200);
const OFFSET = Number(process.env.BENCH_XQUAD_OFFSET ?? 0);
const LANGUAGES = (process.env.BENCH_LANGUAGES ?? "en,de").split(",") as ("en" | "de")[];

async function main() {
  const database = await openDatabase({ dataDir: "memory://" });
  setActiveDatabase(database);
  await boot({ sweeps: false });
  for (const language of LANGUAGES) {
    const tenant = await xquadTenant(database, language);
    const { questions, paragraphs } = xquad(language);
    const textOf = new Map(paragraphs.map((p) => [p._id, p.text]));
    const sample = SIZE >= questions.length ? questions : sampleOf(questions, SIZE, OFFSET);
    const misses: Record<string, unknown>[] = [];
    const causes: Record<string, number> = {};
    for (const [i, q] of sample.entries()) {
      process.stdout.write(`${language} ${i + 1}/${sample.length}\r`);
      const run = await runResearch(tenant, { query: q.question, skipClarification: true });
      const report = run.state.final_report;
      if (!report) throw new Error(`${q._id} ended ${run.status}`);
      if (holdsAnswer(report.answer, q.answers)) continue;
      const entries = [...run.state.primary_context, ...run.state.secondary_context, ...run.state.tertiary_context];
      const gold = entries.filter((e) => tenant.documents.get(e.document_id) === q.paragraph);
      const paragraph = textOf.get(q.paragraph) ?? "";
      const holding = splitSentences(paragraph).find((s) => holdsAnswer(s.text, q.answers))?.text ?? null;
      const cause =
        gold.length === 0
          ? "not-gathered"
          : holding === null
            ? "no-sentence"
            : !gold.some((e) => holdsAnswer(e.extracted_info, q.answers))
              ? "not-picked"
              : "dropped";
      causes[cause] = (causes[cause] ?? 0) + 1;
      misses.push({
        id: q._id,
        question: q.question,
        answers: q.answers,
        cause,
        terms: run.state.query_anchor?.key_entities,
        picked: gold.map((e) => e.extracted_info),
        holding,
      });
    }
    process.stdout.write("\n");
    const recall = 1 - misses.length / sample.length;
    console.info(`${language}: recall ${recall.toFixed(3)} (${sample.length} questions); misses by cause`, causes);
    await writeFile(
      path.join("bench", "results", `research-misses-${language}.json`),
      `${JSON.stringify({ language, questions: sample.length, recall, causes, misses }, null, 2)}\n`,
    );
  }
  await drainTrace();
  stopTraceSequencer();
  setActiveDatabase(undefined);
  await database.close();
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
