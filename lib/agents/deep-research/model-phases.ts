import { z } from "zod";
import { PLAN_MAX_ITEMS, type ResearchLanguage } from "./contract";
import { detectLanguage } from "./language";

// What each phase asks a model, and the shape the answer must have. Every system prompt opens
// with "Research step: <phase>." so a log (or a scripted model) can tell the calls apart.

export const LANGUAGE_NAMES: Record<ResearchLanguage, string> = { de: "German", en: "English" };

const header = (phase: string) => `Research step: ${phase}.`;
const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join("\n") : "(none)");
const text = (max: number) => z.string().trim().min(1).max(max);

/** A model's text in the wrong language is caught here: the reason, or null when it holds. */
export function languageProblem(written: string, language: ResearchLanguage, what: string): string | null {
  const found = detectLanguage(written);
  return found === language
    ? null
    : `the ${what} is in ${LANGUAGE_NAMES[found]}, the question in ${LANGUAGE_NAMES[language]}`;
}

// ── query generation ─────────────────────────────────────────────────────────────────────────
export const QueriesSchema = z.object({ queries: z.array(text(400)).length(3) });

export const queriesRequest = (input: {
  query: string;
  language: ResearchLanguage;
  concepts: string[];
  entities: string[];
  gaps: string[];
  refinements: string[];
}) => ({
  phase: "query_generation",
  schema: QueriesSchema,
  temperature: 0,
  system: `${header("query_generation")} You write search queries over the user's own document collection (keyword and semantic search). Write exactly 3 distinct queries: the first is the question as one standalone query including the user's clarifications; the second and third look for what the first would miss (other wording, the open gaps). Keep names, numbers and terms exactly as the user wrote them. Write in ${LANGUAGE_NAMES[input.language]}.`,
  prompt: `Question: ${input.query}\nClarifications:\n${list(input.refinements)}\nConcepts: ${input.concepts.join(", ") || "(none)"}\nEntities: ${input.entities.join(", ") || "(none)"}\nOpen gaps:\n${list(input.gaps)}`,
  check: (out: z.infer<typeof QueriesSchema>) =>
    new Set(out.queries.map((q) => q.toLowerCase())).size === 3 ? null : "the three queries are not distinct",
});

// ── gap analysis ─────────────────────────────────────────────────────────────────────────────
export const GapsSchema = z.object({
  concepts: z.array(text(200)).max(20),
  entities: z.array(text(200)).max(20),
  gaps: z.array(text(300)).max(10),
  coverage: z.string().trim().max(1000),
});

export const gapsRequest = (input: {
  query: string;
  refinements: string[];
  coverage: number;
  gaps: string[];
  passages: { document: string; excerpt: string }[];
}) => ({
  phase: "gap_analysis",
  schema: GapsSchema,
  temperature: 0,
  system: `${header("gap_analysis")} You judge what the passages found so far cover of the question. Name the question's key concepts and entities, and the knowledge gaps: aspects of the question that none of the passages addresses. Judge the coverage in one or two sentences. Do not invent facts; only the passages count.`,
  prompt: `Question: ${input.query}\nClarifications:\n${list(input.refinements)}\nMeasured coverage of the question's terms: ${input.coverage}\nTerms no passage contains:\n${list(input.gaps)}\n\nPassages:\n${input.passages
    .slice(0, 12)
    .map((p, i) => `[${i + 1}] ${p.document}\n${p.excerpt.slice(0, 600)}`)
    .join("\n\n")}`,
});

// ── follow-up questions ──────────────────────────────────────────────────────────────────────
export const QuestionsSchema = z.object({ questions: z.array(text(500)).min(2).max(3) });

export const questionsRequest = (input: {
  query: string;
  language: ResearchLanguage;
  gaps: string[];
  coverage: number;
  refinements: string[];
}) => ({
  phase: "questions",
  schema: QuestionsSchema,
  temperature: 0,
  system: `${header("questions")} You ask the user 2 or 3 short clarification questions, each about one knowledge gap (or, without gaps, about the scope), so that the research can target their documents. Ask in ${LANGUAGE_NAMES[input.language]}.`,
  prompt: `Question: ${input.query}\nCoverage so far: ${input.coverage}\nKnowledge gaps:\n${list(input.gaps)}\nAlready clarified:\n${list(input.refinements)}`,
  check: (out: z.infer<typeof QuestionsSchema>) =>
    languageProblem(out.questions.join(" "), input.language, "questions"),
});

// ── the plan ─────────────────────────────────────────────────────────────────────────────────
export const PlanSchema = z.object({
  tasks: z
    .array(z.object({ task: z.string().trim().min(5).max(500), context: z.string().trim().max(1000) }))
    .min(3)
    .max(PLAN_MAX_ITEMS),
});

export const planRequest = (input: {
  query: string;
  language: ResearchLanguage;
  entities: string[];
  scope: string;
  refinements: string[];
  clarification: string;
}) => ({
  phase: "plan",
  schema: PlanSchema,
  temperature: 0,
  system: `${header("plan")} You write a research plan of 3 to 5 tasks over the user's own documents. Each task is one specific, checkable thing to find (a requirement, a figure, a condition, a definition), named with the question's own terms; its context says what would answer it. Write in ${LANGUAGE_NAMES[input.language]}.`,
  prompt: `Question: ${input.query}\nKey entities: ${input.entities.join(", ") || "(none)"}\nScope: ${input.scope || "(none)"}\nClarifications:\n${list(input.refinements)}\n${input.clarification ? `Summary of the clarification:\n${input.clarification}` : ""}`,
  check: (out: z.infer<typeof PlanSchema>) =>
    new Set(out.tasks.map((t) => t.task.toLowerCase())).size === out.tasks.length ? null : "the plan repeats a task",
});

// ── extraction ───────────────────────────────────────────────────────────────────────────────
export const ExtractionSchema = z.object({
  passages: z.array(
    z.object({
      n: z.number().int().min(1),
      extracted_info: z.string().trim().max(1500),
      quotes: z.array(z.object({ quote: text(1000), relevance_reason: z.string().trim().max(300) })).max(3),
    }),
  ),
});

export interface NumberedPassage {
  n: number;
  document: string;
  page: number | null;
  section: string | null;
  text: string;
}

const passageBlock = (p: NumberedPassage, chars = 3000) =>
  `[${p.n}] ${p.document}${p.page !== null ? `, p. ${p.page}` : ""}${p.section ? `, ${p.section}` : ""}\n${p.text.slice(0, chars)}`;

export const extractionRequest = (input: {
  query: string;
  task: string;
  taskId: number;
  passages: NumberedPassage[];
}) => ({
  phase: "extraction",
  taskId: input.taskId,
  schema: ExtractionSchema,
  temperature: 0,
  system: `${header("extraction")} For each numbered passage, write extracted_info: what it says that serves the task (facts, figures, conditions; empty when nothing), in the passage's own terms. Add up to 3 quotes: sentences copied character for character from the passage, with why each matters. A quote that is not an exact copy is discarded.`,
  prompt: `Question: ${input.query}\nTask: ${input.task}\n\nPassages:\n${input.passages.map((p) => passageBlock(p)).join("\n\n")}`,
  check: (out: z.infer<typeof ExtractionSchema>) => {
    const known = new Set(input.passages.map((p) => p.n));
    const unknown = out.passages.filter((p) => !known.has(p.n)).map((p) => p.n);
    return unknown.length ? `passages ${unknown.join(", ")} were not given` : null;
  },
});

// ── tier classification ──────────────────────────────────────────────────────────────────────
export const ClassificationSchema = z.object({
  passages: z.array(
    z.object({ n: z.number().int().min(1), tier: z.number().int().min(1).max(3), reason: z.string().trim().max(300) }),
  ),
});

export const classificationRequest = (input: {
  query: string;
  task: string;
  taskId: number;
  entities: string[];
  passages: (NumberedPassage & { depth: number; extracted_info: string })[];
}) => ({
  phase: "classification",
  taskId: input.taskId,
  schema: ClassificationSchema,
  temperature: 0,
  system: `${header("classification")} Classify each passage for the question: tier 1 (primary) answers it directly and names its subject; tier 2 (secondary) supports or qualifies the answer; tier 3 (tertiary) is background. A passage reached by following a reference (depth 1 or more) cannot be primary.`,
  prompt: `Question: ${input.query}\nKey entities: ${input.entities.join(", ") || "(none)"}\nTask: ${input.task}\n\nPassages:\n${input.passages
    .map((p) => `${passageBlock(p, 1200)}\n(depth ${p.depth}; extracted: ${p.extracted_info || "nothing"})`)
    .join("\n\n")}`,
  check: (out: z.infer<typeof ClassificationSchema>) => {
    const known = new Set(input.passages.map((p) => p.n));
    const unknown = out.passages.filter((p) => !known.has(p.n)).map((p) => p.n);
    return unknown.length ? `passages ${unknown.join(", ")} were not given` : null;
  },
});

// ── synthesis ────────────────────────────────────────────────────────────────────────────────
export const SynthesisSchema = z.object({
  answer: z.string().trim().min(20).max(20000),
  claims: z
    .array(
      z.object({
        text: text(1000),
        sources: z.array(z.number().int().min(1)).min(1).max(5),
        quote: z.string().trim().min(1).max(1000).nullable(),
      }),
    )
    .max(40),
});

export const synthesisRequest = (input: {
  query: string;
  language: ResearchLanguage;
  tasks: string[];
  clarification: string;
  sources: (NumberedPassage & { tier: 1 | 2 | 3; extracted_info: string })[];
  quotes: { quote: string; n: number }[];
  retry: string | null;
}) => ({
  phase: "synthesis",
  schema: SynthesisSchema,
  temperature: 0,
  system: `${header("synthesis")} You write a research report in ${LANGUAGE_NAMES[input.language]} (Markdown) that answers the question from the numbered sources only, organised by the plan's tasks, primary sources first. Cite every statement as [n]. Quotes stay verbatim in their source's language. List each factual statement of the report as a claim with its source numbers and, where one supports it, a quote copied character for character from that source.${input.retry ? ` ${input.retry}` : ""}`,
  prompt: `Question: ${input.query}\nPlan:\n${list(input.tasks)}\n${input.clarification ? `Clarification:\n${input.clarification}\n` : ""}\nSources:\n${input.sources
    .map((s) => `${passageBlock(s, 1500)}\n(tier ${s.tier}; extracted: ${s.extracted_info})`)
    .join("\n\n")}\n\nPreserved quotes:\n${list(input.quotes.map((q) => `[${q.n}] ${q.quote}`))}`,
});

/** The report's own prose: without blockquotes, quoted passages and citation marks (for the language check). */
export function proseOf(answer: string): string[] {
  return answer
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split("\n")
        .filter((line) => !line.trim().startsWith(">"))
        .join("\n")
        .replace(/„[^“]*“|"[^"]*"|“[^”]*”/g, " ")
        .replace(/\[\d+\]/g, "")
        .replace(/^#+\s*/gm, "")
        .trim(),
    )
    .filter(Boolean);
}
