import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { inArray } from "drizzle-orm";
import type { FinalReport, ResearchPublicState } from "@/lib/agents/contract";
import { answerInterrupt, waitingCheckpointOf } from "@/lib/checkpoints";
import { type Database, schema } from "@/lib/db";
import { recordDecision } from "@/lib/hitl";
import { ingestDocuments, maintainKnowledgeIndex, searchKnowledge } from "@/lib/rag";
import type { KnowledgeLanguage } from "@/lib/rag/contract";
import { executionSettled, getRun, type RunActor, startRun } from "@/lib/runs";
import { sharedCollectionsDir } from "./ir-collection";
import { benchTenant } from "./tenant";

// Research runs over a knowledge base of their own, for the research tests and bench:research:
// a fresh tenant with a Research Analyst reading one domain, runs driven through the lib calls
// the API routes make, and the XQuAD measures (answer span, language, cited paragraph).

export interface CorpusDocument {
  title: string;
  content: string;
  format?: "markdown" | "text";
  externalId?: string;
  language?: KnowledgeLanguage;
}

export interface ResearchTenant {
  tenantId: string;
  agentId: string;
  member: RunActor;
  reviewer: RunActor & { name: string };
  /** Knowledge document id → the external id it was loaded with (or its title). */
  documents: Map<string, string>;
}

/** A new tenant, its Research Analyst reading `domain`, and `docs` ingested (lexical only). */
export async function researchTenant(
  database: Database,
  label: string,
  domain: string,
  docs: CorpusDocument[],
): Promise<ResearchTenant> {
  const tenantId = await benchTenant(database, label);
  const [agent] = await database.db
    .insert(schema.agents)
    .values({
      tenantId,
      slug: "research-analyst",
      name: "Research Analyst",
      domain: "Deep research",
      description: "Research over this tenant's documents.",
      avatar: "search",
      systemPrompt: "You are a research analyst.",
      knowledgeDomains: [domain],
      workflow: "deep-research",
    })
    .returning({ id: schema.agents.id });
  const documents = new Map<string, string>();
  const loaded = await ingestDocuments(
    { tenantId },
    docs.map((d) => ({
      title: d.title,
      format: d.format ?? "markdown",
      content: d.content,
      domains: [domain],
      ...(d.externalId ? { externalId: d.externalId } : {}),
      ...(d.language ? { language: d.language } : {}),
    })),
    { createdBy: "seed", embeddings: null },
  );
  for (const [i, { document }] of loaded.entries()) documents.set(document.id, docs[i].externalId ?? docs[i].title);
  await maintainKnowledgeIndex(database.db);
  return {
    tenantId,
    agentId: agent.id,
    documents,
    member: { tenantId, userId: `member-${label}`, role: "member" },
    reviewer: { tenantId, userId: `reviewer-${label}`, role: "reviewer", name: "Research Reviewer" },
  };
}

export interface ResearchOutcome {
  runId: string;
  status: string;
  state: ResearchPublicState;
  /** The clarification questions the run asked, one list per stop. */
  asked: string[][];
}

async function stopped(actor: RunActor, runId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await executionSettled(runId);
    const run = await getRun(actor, runId);
    if (run.status !== "running" || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Starts a run and drives it: each clarification stop is answered with the next of `answers`
 * (then `/end`), the plan checkpoint is approved or rejected by the tenant's reviewer.
 */
export async function runResearch(
  tenant: ResearchTenant,
  input: Record<string, unknown>,
  options: { answers?: string[]; plan?: "approve" | "reject" } = {},
): Promise<ResearchOutcome> {
  const { runId } = await startRun(tenant.member, {
    workflow: "deep-research",
    input: { agentId: tenant.agentId, ...input },
  });
  const answers = [...(options.answers ?? [])];
  const asked: string[][] = [];
  for (let stops = 0; stops < 20; stops++) {
    const run = await stopped(tenant.member, runId);
    if (run.status !== "interrupted") {
      return { runId, status: run.status, state: run.state as unknown as ResearchPublicState, asked };
    }
    const waiting = await waitingCheckpointOf(tenant.member, runId);
    if (waiting?.type === "plan_approval") {
      await recordDecision(tenant.reviewer, waiting.caseId, {
        requestId: randomUUID(),
        outcome: options.plan === "reject" ? "rejected" : "approved",
        ...(options.plan === "reject" ? { notes: "Out of scope for this quarter." } : {}),
      });
      continue;
    }
    const pending = run.pendingInterrupts[0]?.value as { kind?: string; questions?: string[] } | undefined;
    if (pending?.kind !== "research_clarification") throw new Error(`unexpected stop: ${JSON.stringify(pending)}`);
    asked.push(pending.questions ?? []);
    await answerInterrupt(tenant.member, runId, { value: { response: answers.shift() ?? "/end" } });
  }
  throw new Error(`run ${runId} did not finish`);
}

/** Lower case, punctuation and runs of blanks folded: how answer spans are compared. */
export function normalised(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether `text` holds one of the answer spans, compared normalised and on word boundaries. */
export function holdsAnswer(text: string, answers: string[]): boolean {
  const hay = ` ${normalised(text)} `;
  return answers.some((a) => {
    const needle = normalised(a);
    return needle.length > 0 && hay.includes(` ${needle} `);
  });
}

// XQuAD (../shared/ir/xquad, or VIGIL_IR_DIR): 120 paragraphs and 612 questions per language,
// the same in English and German.
export interface XquadParagraph {
  _id: string;
  title: string;
  text: string;
}
export interface XquadQuestion {
  _id: string;
  question: string;
  answers: string[];
  paragraph: string;
}

export const xquadDir = () => path.join(sharedCollectionsDir(), "xquad");
export const xquadPresent = () =>
  existsSync(path.join(xquadDir(), "de", "corpus.jsonl")) && existsSync(path.join(xquadDir(), "en", "corpus.jsonl"));

const readLines = <T>(file: string): T[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);

export function xquad(language: "en" | "de") {
  return {
    paragraphs: readLines<XquadParagraph>(path.join(xquadDir(), language, "corpus.jsonl")),
    questions: readLines<XquadQuestion>(path.join(xquadDir(), language, "questions.jsonl")),
  };
}

/** Every `step`-th question from `offset`: a spread over all articles, the same ids in both languages. */
export const sampleOf = <T>(items: T[], size: number, offset = 0): T[] => {
  const step = Math.max(1, Math.floor(items.length / size));
  return Array.from({ length: size }, (_, i) => items[(offset + i * step) % items.length]);
};

/** One language's paragraphs as a tenant's knowledge base, each its own document, its language detected. */
export async function xquadTenant(database: Database, language: "en" | "de"): Promise<ResearchTenant> {
  const { paragraphs } = xquad(language);
  return researchTenant(
    database,
    `xquad-${language}`,
    "xquad",
    paragraphs.map((p) => ({ title: p.title, content: p.text, format: "text", externalId: p._id })),
  );
}

export interface XquadScore {
  language: boolean;
  /** The report holds an answer span. */
  recall: boolean;
  /** A claim holding the answer span cites the paragraph that holds it. */
  citesParagraph: boolean;
  claims: number;
  verifiedClaims: number;
  quotes: number;
  /** Quotes that are not a substring of their stored chunk. */
  unverifiableQuotes: number;
  reportChars: number;
}

/** How one report does on its question; quotes are checked against the chunks as stored. */
export async function scoreXquad(
  database: Database,
  tenant: ResearchTenant,
  question: XquadQuestion,
  language: "en" | "de",
  report: FinalReport,
): Promise<XquadScore> {
  const paragraphOf = (n: number) => {
    const source = report.sources.find((s) => s.n === n);
    return source ? tenant.documents.get(source.document_id) : undefined;
  };
  const ids = report.quotes.map((q) => q.chunk_id);
  const stored =
    ids.length === 0
      ? []
      : await database.db
          .select({ id: schema.knowledgeChunks.id, text: schema.knowledgeChunks.text })
          .from(schema.knowledgeChunks)
          .where(inArray(schema.knowledgeChunks.id, ids));
  const textOf = new Map(stored.map((r) => [r.id, r.text]));
  return {
    language: report.language === language,
    recall: holdsAnswer(report.answer, question.answers),
    citesParagraph: report.claims.some(
      (c) => holdsAnswer(c.text, question.answers) && c.sources.some((n) => paragraphOf(n) === question.paragraph),
    ),
    claims: report.claims.length,
    verifiedClaims: report.claims.filter((c) => c.verified).length,
    quotes: report.quotes.length,
    unverifiableQuotes: report.quotes.filter((q) => !textOf.get(q.chunk_id)?.includes(q.quote)).length,
    reportChars: report.answer.length,
  };
}

/** The baseline: the top-5 BM25 passages for the question, concatenated. */
export async function bm25Baseline(tenant: ResearchTenant, question: XquadQuestion) {
  const { items } = await searchKnowledge(
    { tenantId: tenant.tenantId },
    { query: question.question, k: 5, domains: ["xquad"] },
    { embeddings: null },
  );
  const text = items.map((i) => i.text).join("\n\n");
  return { recall: holdsAnswer(text, question.answers), chars: text.length };
}
