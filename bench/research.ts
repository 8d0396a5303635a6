// npm run bench:research — the deep-research workflow with the offline engine:
//  1. the demo corpus: 20 questions, one clarification round each (answered /end), the plan
//     approved; phase timings p50/p95 (node durations from the trace, so no waiting for a person),
//     retrieval calls and report size per run;
//  2. XQuAD (../shared/ir/xquad): each language's 120 paragraphs as a tenant's knowledge base, a
//     run per question (clarification skipped), in the question's language: answer-span recall of
//     the report, whether the claim holding the span cites its paragraph, citation precision
//     (claims verified against their cited passage), unverifiable quotes, and the baseline of the
//     top-5 BM25 passages for the same question (same recall measure, sizes in characters).
//
//   npm run bench:research
//   BENCH_XQUAD_QUESTIONS=40 npm run bench:research           (a quicker look; default all 612)
//   BENCH_XQUAD_QUESTIONS=100 BENCH_XQUAD_OFFSET=3 npm run bench:research
//                        (another sample of the same size: every step-th question from the offset,
//                         disjoint from offset 0 while the offset is below the step, 612 / size)
//
// Runs on embedded PGlite (in memory), the database a single-machine deployment uses.

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, setActiveDatabase } from "@/lib/db";
import { seedDemo, seedKnowledgeCorpus } from "@/lib/demo";
import { boot } from "@/lib/server";
import { drainTrace, stopTraceSequencer } from "@/lib/trace";
import { fmt, machineRows, percentile } from "./support/machine";
import {
  bm25Baseline,
  type ResearchTenant,
  runResearch,
  sampleOf,
  scoreXquad,
  type XquadScore,
  xquad,
  xquadPresent,
  xquadTenant,
} from "./support/research-runs";

const XQUAD_QUESTIONS = Number(process.env.BENCH_XQUAD_QUESTIONS ?? 612);
const XQUAD_OFFSET = Number(process.env.BENCH_XQUAD_OFFSET ?? 0);
const GOALS = { recall: 0.8, germanGap: 0.05, citationPrecision: 0.95, unverifiableQuotes: 0 };

/** Twenty questions over the demo corpus's four domains. */
const DEMO_QUESTIONS = [
  "How long does the FDA review of a 510(k) take, and what is a predicate device?",
  "When does a medical device need premarket approval instead of a 510(k)?",
  "What does a De Novo classification request require?",
  "What must a New Drug Application contain?",
  "How does a Biologics License Application differ from an NDA?",
  "What are the conditions of accelerated approval and its confirmatory trials?",
  "What do fast track, breakthrough therapy and priority review offer a sponsor?",
  "When can a clinical trial start after an IND is submitted?",
  "What incentives does orphan drug designation give?",
  "How does the EMA centralised procedure work and how long does it take?",
  "What is the purpose of each phase of clinical development?",
  "Why are patients randomised in clinical trials and how is allocation concealed?",
  "How are non-inferiority margins chosen?",
  "How is the sample size of a trial calculated?",
  "How are quality-adjusted life years calculated?",
  "What is an incremental cost-effectiveness ratio and how is it interpreted?",
  "Which cost-effectiveness thresholds do NICE and other agencies use?",
  "What are the reporting deadlines for a SUSAR?",
  "What does an individual case safety report need to be valid?",
  "How is MedDRA used to code adverse events?",
];

/** The design's phases, by the nodes that do their work. */
const PHASES: Record<string, string[]> = {
  clarify: [
    "hitl_init",
    "hitl_generate_queries",
    "hitl_retrieve_chunks",
    "hitl_analyze_retrieval",
    "hitl_generate_questions",
    "hitl_finalize",
  ],
  plan: ["generate_todo"],
  execute: ["execute_task"],
  validate: ["validate_relevance"],
  synthesize: ["synthesize", "quality_check"],
  attribute: ["attribute_sources"],
};

interface DemoRun {
  phases: Record<string, number>;
  wallMs: number;
  retrievalCalls: number;
  reportChars: number;
  sources: number;
  claims: number;
  verified: number;
}

async function main() {
  const database = await openDatabase({ dataDir: "memory://" });
  setActiveDatabase(database);
  await boot({ sweeps: false });
  await seedDemo(database, { force: true });
  await seedKnowledgeCorpus(database, { embeddings: null });
  const [demo] = rowsOf<{ id: string }>(await database.db.execute(sql`select id from tenants where slug = 'demo'`));
  const [agent] = rowsOf<{ id: string }>(
    await database.db.execute(sql`select id from agents where tenant_id = ${demo.id} and slug = 'research-analyst'`),
  );
  const demoTenant: ResearchTenant = {
    tenantId: demo.id,
    agentId: agent.id,
    documents: new Map(),
    member: { tenantId: demo.id, userId: "bench-member", role: "member" },
    reviewer: { tenantId: demo.id, userId: "bench-reviewer", role: "reviewer", name: "Bench Reviewer" },
  };

  // 1. Phase timings on the demo corpus.
  const demoRuns: DemoRun[] = [];
  for (const [i, query] of DEMO_QUESTIONS.entries()) {
    const started = performance.now();
    const run = await runResearch(demoTenant, { query });
    const wallMs = performance.now() - started;
    if (run.status !== "completed" || !run.state.final_report) throw new Error(`demo run ${i} ended ${run.status}`);
    await drainTrace();
    const rows = rowsOf<{ node_name: string; ms: number }>(
      await database.db.execute(
        sql`select node_name, coalesce(sum(event_duration_ms), 0)::float as ms from execution_trace
            where run_id = ${run.runId} and event_type = 'node_complete' group by node_name`,
      ),
    );
    const phases = Object.fromEntries(
      Object.entries(PHASES).map(([phase, nodes]) => [
        phase,
        rows.filter((r) => nodes.includes(r.node_name)).reduce((s, r) => s + Number(r.ms), 0),
      ]),
    );
    const report = run.state.final_report;
    demoRuns.push({
      phases,
      wallMs,
      retrievalCalls: run.state.retrieval_calls,
      reportChars: report.answer.length,
      sources: report.sources.length,
      claims: report.claims.length,
      verified: report.claims.filter((c) => c.verified).length,
    });
    process.stdout.write(`demo ${i + 1}/${DEMO_QUESTIONS.length}\r`);
  }
  process.stdout.write("\n");

  // 2. XQuAD per language.
  const xquadRows: { language: "en" | "de"; scores: XquadScore[]; baseline: { recall: boolean; chars: number }[] }[] =
    [];
  if (xquadPresent()) {
    for (const language of ["en", "de"] as const) {
      const tenant = await xquadTenant(database, language);
      const { questions } = xquad(language);
      const sample =
        XQUAD_QUESTIONS >= questions.length ? questions : sampleOf(questions, XQUAD_QUESTIONS, XQUAD_OFFSET);
      const scores: XquadScore[] = [];
      const baseline: { recall: boolean; chars: number }[] = [];
      for (const [i, q] of sample.entries()) {
        const run = await runResearch(tenant, { query: q.question, skipClarification: true });
        if (!run.state.final_report) throw new Error(`xquad ${language} ${q._id} ended ${run.status}`);
        scores.push(await scoreXquad(database, tenant, q, language, run.state.final_report));
        baseline.push(await bm25Baseline(tenant, q));
        process.stdout.write(`xquad ${language} ${i + 1}/${sample.length}\r`);
      }
      process.stdout.write("\n");
      xquadRows.push({ language, scores, baseline });
    }
  }

  await drainTrace();
  stopTraceSequencer();
  setActiveDatabase(undefined);
  await database.close();
  await writeReport(demoRuns, xquadRows);
}

const share = (xs: boolean[]) => (xs.length === 0 ? Number.NaN : xs.filter(Boolean).length / xs.length);
const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

async function writeReport(
  demo: DemoRun[],
  rows: { language: "en" | "de"; scores: XquadScore[]; baseline: { recall: boolean; chars: number }[] }[],
) {
  const lines: string[] = [
    "# bench:research",
    "",
    `Deep research with the offline engine on embedded PGlite (in memory), ${new Date().toISOString().slice(0, 10)}.`,
    "",
    machineRows(),
    "",
    `## Demo corpus: ${demo.length} questions (one clarification round, ended with /end; plan approved)`,
    "",
    "Node durations from the trace (the time a person takes is not in them), per run, ms:",
    "",
    "| phase | p50 | p95 |",
    "|---|---:|---:|",
  ];
  for (const phase of Object.keys(PHASES)) {
    const xs = demo.map((d) => d.phases[phase]);
    lines.push(`| ${phase} | ${fmt(percentile(xs, 50), 0)} | ${fmt(percentile(xs, 95), 0)} |`);
  }
  const walls = demo.map((d) => d.wallMs);
  lines.push(
    `| whole run (wall, incl. the driver's polling) | ${fmt(percentile(walls, 50), 0)} | ${fmt(percentile(walls, 95), 0)} |`,
  );
  lines.push(
    "",
    "| per run | mean | min | max |",
    "|---|---:|---:|---:|",
    ...(
      [
        ["retrieval calls", demo.map((d) => d.retrievalCalls)],
        ["report size (characters)", demo.map((d) => d.reportChars)],
        ["sources cited", demo.map((d) => d.sources)],
        ["claims", demo.map((d) => d.claims)],
        ["claims verified", demo.map((d) => d.verified)],
      ] as [string, number[]][]
    ).map(([name, xs]) => `| ${name} | ${fmt(mean(xs))} | ${Math.min(...xs)} | ${Math.max(...xs)} |`),
    "",
  );
  if (rows.length === 0) {
    lines.push("XQuAD not found (set VIGIL_IR_DIR to the folder that holds xquad/): not measured.", "");
  } else {
    lines.push(
      `## XQuAD: ${rows[0].scores.length} questions per language${XQUAD_OFFSET ? ` (sample offset ${XQUAD_OFFSET})` : ""} (clarification skipped)`,
      "",
      "| language | report in its language | answer-span recall: report | recall: top-5 BM25 | span claim cites its paragraph | citation precision | unverifiable quotes | report size (chars, mean) | top-5 BM25 size (chars, mean) |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    const recall: Record<string, number> = {};
    for (const r of rows) {
      const claims = r.scores.reduce((s, x) => s + x.claims, 0);
      const verified = r.scores.reduce((s, x) => s + x.verifiedClaims, 0);
      recall[r.language] = share(r.scores.map((s) => s.recall));
      lines.push(
        `| ${r.language} | ${fmt(share(r.scores.map((s) => s.language)), 3)} | ${fmt(recall[r.language], 3)} | ${fmt(share(r.baseline.map((b) => b.recall)), 3)} | ${fmt(share(r.scores.map((s) => s.citesParagraph)), 3)} | ${fmt(claims ? verified / claims : Number.NaN, 3)} (${verified}/${claims}) | ${r.scores.reduce((s, x) => s + x.unverifiableQuotes, 0)} of ${r.scores.reduce((s, x) => s + x.quotes, 0)} | ${fmt(mean(r.scores.map((s) => s.reportChars)), 0)} | ${fmt(mean(r.baseline.map((b) => b.chars)), 0)} |`,
      );
    }
    const gap = (recall.en ?? 0) - (recall.de ?? 0);
    lines.push(
      "",
      `Goals: answer-span recall ≥ ${GOALS.recall} in both languages (en ${fmt(recall.en, 3)}, de ${fmt(recall.de, 3)}); German within ${GOALS.germanGap * 100} % of English (gap ${fmt(gap * 100)} points); citation precision ≥ ${GOALS.citationPrecision}; ${GOALS.unverifiableQuotes} unverifiable quotes.`,
      "",
      "Answer-span recall: an answer span of the question occurs in the text (lower case, punctuation folded, on word boundaries). Citation precision: the share of the reports' claims verified against the passage they cite (the quote occurs in it, and each number and name of the claim). A quote is unverifiable when it is not a substring of its chunk as stored.",
      "",
    );
  }
  const out = lines.join("\n");
  await mkdir(path.join("bench", "results"), { recursive: true });
  await writeFile(path.join("bench", "results", "research.md"), out);
  console.log(out);
}

await main();
process.exit(0);
