import { splitSentences } from "@/lib/engine";
import {
  QUALITY_DIMENSIONS,
  type QualityAssessment,
  type ReportClaim,
  type ReportSource,
  type ResearchLanguage,
  type TaskSummary,
  type TieredContextEntry,
  type ToDoItem,
} from "./contract";
import { FINDING_SENTENCES, pointsBack } from "./evidence";
import { languageOfSegment } from "./language";
import { containsTerm, round } from "./terms";

const WORDS: Record<ResearchLanguage, Record<string, string>> = {
  en: {
    title: "Research report",
    answer: "Answer",
    clarification: "Clarification",
    none: "The documents of the knowledge base hold nothing on these tasks:",
  },
  de: {
    title: "Recherchebericht",
    answer: "Antwort",
    clarification: "Klärung",
    none: "Die Dokumente der Wissensbasis enthalten nichts zu diesen Aufgaben:",
  },
};

const intro = (l: ResearchLanguage, passages: number, documents: number, tasks: number) =>
  l === "de"
    ? `Dieser Bericht beantwortet die Frage aus ${passages} Passagen in ${documents} Dokumenten der Wissensbasis, gegliedert nach den ${tasks} Aufgaben des vereinbarten Plans; die zitierten Sätze stehen wörtlich in ihrer Quelle.`
    : `This report answers the question from ${passages} passages in ${documents} documents of the knowledge base, organised by the ${tasks} tasks of the agreed plan; the cited sentences appear verbatim in their source.`;

/** The report's sources: one per chunk, numbered `[n]` by tier (primary first), then weight. */
export function numberSources(tiers: TieredContextEntry[]): {
  sources: ReportSource[];
  numberOf: Map<string, number>;
} {
  const sources: ReportSource[] = [];
  const numberOf = new Map<string, number>();
  for (const e of [...tiers].sort((a, b) => a.context_tier - b.context_tier || b.context_weight - a.context_weight)) {
    if (numberOf.has(e.chunk_id)) continue;
    const n = sources.length + 1;
    numberOf.set(e.chunk_id, n);
    sources.push({
      n,
      document: e.document,
      document_id: e.document_id,
      chunk_id: e.chunk_id,
      page: e.page,
      section: e.section,
      excerpt: e.extracted_info.slice(0, 500),
      tier: e.context_tier,
      source_type: e.source_type,
      ...(e.url ? { url: e.url } : {}),
    });
  }
  return { sources, numberOf };
}

export interface Draft {
  answer: string;
  claims: ReportClaim[];
  sources: ReportSource[];
  /** The report's own words (headings and connecting sentences), for the language check. */
  framing: string[];
}

/**
 * The offline synthesis: sources numbered by tier (primary first), then per task of the plan its
 * passages as claims citing `[n]`, and the clarification summary. The framing is in the
 * question's language; the findings stay in the words of their documents.
 *
 * What a task shows is measured on answers people asked for (bench:research): the passage that
 * answers mostly is the first the search found for the question, and the sentence that answers
 * in it is often not the one sharing most words with the question ("The astronauts were
 * asphyxiated …" after "… an electrical fire began in the cabin"). So the plan's first task that
 * found passages by searching shows its best-ranked passage whole, the best sentences of its
 * second (FINDING_SENTENCES: where the first passage does not answer, the second most often
 * does), then the best sentence of each of its next passages, in search order as a plain
 * search's first screen would rank them (LEAD_TASK_PASSAGES in all); every other task shows the
 * best sentence of its best passage. The preserved quotes are not repeated here: they are the
 * report's own part (`FinalReport.quotes`), shown beside the answer.
 */
export function synthesizeOffline(input: {
  query: string;
  language: ResearchLanguage;
  tasks: ToDoItem[];
  tiers: TieredContextEntry[];
  summaries: TaskSummary[];
  clarification: string;
}): Draft {
  const w = WORDS[input.language];
  const { sources, numberOf } = numberSources(input.tiers);
  const documents = new Set(sources.map((s) => s.document_id)).size;
  const framing = [intro(input.language, sources.length, documents, input.tasks.length)];
  const lines = [`# ${w.title}: ${input.query}`, "", framing[0], "", `## ${w.answer}`, ""];
  const claims: ReportClaim[] = [];
  const used = new Set<string>();
  let led = false;
  // Tasks nothing was found for are named together once, after those that found something: a
  // heading and a "nothing" line each only lengthened the answer a reader has to go through.
  const empty: string[] = [];
  for (const task of input.tasks) {
    const entries = input.tiers
      .filter((e) => e.task_id === task.id && !used.has(e.chunk_id))
      .sort(
        (a, b) =>
          (a.search_rank ?? Number.POSITIVE_INFINITY) - (b.search_rank ?? Number.POSITIVE_INFINITY) ||
          a.context_tier - b.context_tier ||
          b.relevance_score - a.relevance_score,
      );
    const leads: boolean = !led && entries[0]?.search_rank !== undefined;
    const shown = entries.slice(0, leads ? LEAD_TASK_PASSAGES : 1);
    if (shown.length === 0) {
      empty.push(task.task);
      continue;
    }
    lines.push(`### ${task.task}`, "");
    led ||= leads;
    for (const [i, e] of shown.entries()) {
      used.add(e.chunk_id);
      const n = numberOf.get(e.chunk_id) as number;
      // Each sentence shown is a claim of its own.
      const sentences =
        leads && i === 0
          ? sentencesOfChunk(e.chunk)
          : sentencesOf(e.extracted_info, leads && i === 1 ? FINDING_SENTENCES : 1, e.chunk);
      for (const sentence of sentences) {
        lines.push(`- ${sentence} [${n}]`);
        claims.push({ text: sentence, sources: [n], quote: sentence, verified: false, problems: [] });
      }
    }
    lines.push("");
  }
  if (empty.length > 0) {
    lines.push(w.none, "", ...empty.map((task) => `- ${task}`), "");
    framing.push(w.none);
  }
  if (input.clarification) {
    lines.push(`## ${w.clarification}`, "", input.clarification, "");
    framing.push(input.clarification);
  }
  return { answer: lines.join("\n").trim(), claims, sources, framing };
}

/** How many passages the leading task shows: its best one whole, its second's finding, then one sentence of each. */
export const LEAD_TASK_PASSAGES = 5;

/** A chunk's sentences as its splitter cuts them, headings left out: the lead passage whole. */
function sentencesOfChunk(chunk: string): string[] {
  return splitSentences(chunk)
    .filter((s) => s.kind !== "heading")
    .map((s) => s.text.trim())
    .filter(Boolean);
}

/**
 * The first `max` sentences of a finding (best first), with the sentence its best one points back
 * to when the finding opens with it.
 */
export function sentencesOf(info: string, max: number, chunk?: string): string[] {
  // extracted_info joins whole sentences of the chunk, best first; each stands alone as a claim.
  // They are taken from the chunk as its splitter cut it: split again once joined, a sentence the
  // chunk ended without a full stop ("… compressed O" before a line "2. …") would run into the
  // next and quote neither. A finding that is not the chunk's sentences joined (a model's) is
  // split by the engine's splitter (not after "z.B.", "John C." or "8. Februar").
  if (chunk) {
    const inChunk = splitSentences(chunk).map((s) => s.text.trim());
    const own = inChunk.filter((t) => t && info.includes(t)).sort((a, b) => info.indexOf(a) - info.indexOf(b));
    // A finding that opens with the sentence its best one points back to (extractInfo) shows
    // that sentence besides its `max`: it is the best sentence's subject, not another finding.
    const lead =
      own.length > 1 && pointsBack(own[1]) && inChunk.indexOf(own[0]) === inChunk.indexOf(own[1]) - 1 ? 1 : 0;
    if (own.length > 0 && own.join(" ") === info) return own.slice(0, max + lead);
  }
  return splitSentences(info)
    .map((s) => s.text.trim())
    .filter(Boolean)
    .slice(0, max);
}

const NUMBER = /\d+(?:[.,]\d+)*/g;

/** Names in a claim: acronyms, and capitalised words not at the start of the sentence. */
export function namesIn(text: string): string[] {
  const out = new Set<string>();
  const words = text.match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? [];
  words.forEach((word, i) => {
    if (
      /^[A-Z]{2,}[a-z]?$/.test(word) ||
      (i > 0 && /^[A-Z][a-z]/.test(word) && !/^[A-Z][a-z]+$/.test(words[i - 1] ?? "x"))
    )
      out.add(word);
  });
  return [...out];
}

/**
 * Checks a claim without a model: its quote occurs in a cited chunk, and each number and name in
 * it occurs in a cited passage. `chunks` maps a source number to its chunk's text as stored.
 */
export function verifyClaim(claim: ReportClaim, chunks: Map<number, string | undefined>): ReportClaim {
  const problems: string[] = [];
  const cited = claim.sources.map((n) => chunks.get(n));
  claim.sources.forEach((n, i) => {
    if (cited[i] === undefined) problems.push(`source [${n}] does not resolve to a stored passage`);
  });
  const texts = cited.filter((t): t is string => t !== undefined);
  if (claim.quote && !texts.some((t) => t.includes(claim.quote as string)))
    problems.push("the quote does not occur in the cited passage");
  for (const number of claim.text.match(NUMBER) ?? []) {
    if (!texts.some((t) => t.includes(number))) problems.push(`the number ${number} is not in the cited passage`);
  }
  for (const name of namesIn(claim.text)) {
    if (!texts.some((t) => t.includes(name))) problems.push(`the name ${name} is not in the cited passage`);
  }
  return { ...claim, verified: problems.length === 0 && texts.length > 0, problems };
}

/**
 * The four dimensions, 0–100 each, from the report itself:
 * relevance — share of the anchor's terms the answer mentions; coverage — share of the plan's
 * tasks with at least one cited finding; groundedness — share of claims verified; language —
 * share of the framing segments that can be told whose language is the question's.
 */
export function assessQuality(input: {
  answer: string;
  anchorTerms: string[];
  tasks: ToDoItem[];
  claimsByTask: number[];
  claims: ReportClaim[];
  framing: string[];
  language: ResearchLanguage;
}): QualityAssessment {
  const mentioned = input.anchorTerms.filter((t) => containsTerm(input.answer, t, input.language));
  const answered = input.claimsByTask.filter((c) => c > 0).length;
  const verified = input.claims.filter((c) => c.verified).length;
  const told = input.framing.map(languageOfSegment).filter((l): l is ResearchLanguage => l !== null);
  const inLanguage = told.filter((l) => l === input.language).length;
  const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((100 * a) / b));
  const dimensions = {
    relevance: {
      score: pct(mentioned.length, input.anchorTerms.length),
      basis: `${mentioned.length} of ${input.anchorTerms.length} anchor terms appear in the answer`,
    },
    coverage: {
      score: pct(answered, input.tasks.length),
      basis: `${answered} of ${input.tasks.length} tasks have a cited finding`,
    },
    groundedness: {
      score: pct(verified, input.claims.length),
      basis: `${verified} of ${input.claims.length} claims verified against their passages`,
    },
    language: {
      score: pct(inLanguage, told.length),
      basis: `${inLanguage} of ${told.length} framing segments detected as "${input.language}"`,
    },
  };
  const total = QUALITY_DIMENSIONS.reduce((sum, d) => sum + dimensions[d].score, 0);
  return { total: round(total, 0), dimensions };
}
