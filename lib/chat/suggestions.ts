import type { TenantScope } from "@/lib/db";
import { type DocumentOutline, documentOutlines } from "@/lib/rag";

/** How many questions a new chat suggests. */
export const SUGGESTION_COUNT = 4;
/** Suggestions are drawn from this many of the newest documents in the agent's domains. */
const OUTLINE_DOCUMENTS = 24;
/** A suggestion longer than this would not read as a chip. */
const MAX_SUGGESTION_CHARS = 110;

/**
 * Heading words that name a part of any document rather than its subject ("Examples",
 * "Timetable", "Content and format"): a question made of them alone says what it is about by
 * the document's title.
 */
const PART_WORDS = new Set([
  "about",
  "and",
  "background",
  "benefits",
  "content",
  "contents",
  "definitions",
  "example",
  "examples",
  "format",
  "general",
  "introduction",
  "key",
  "other",
  "outcome",
  "overview",
  "points",
  "process",
  "purpose",
  "relation",
  "requirements",
  "scope",
  "steps",
  "summary",
  "timetable",
  "to",
  "the",
  "of",
  "for",
  "a",
  "an",
  "in",
  "on",
  "with",
]);

const WH_WORD = /^(what|which|how|why|when|where|who)\b/i;
const QUESTION_START = /^(what|which|how|why|when|where|who|can|could|does|do|is|are|should|must|may|will)\b/i;

function clean(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.,;:!…–—-]+$/u, "");
}

/** "Substantial equivalence" → "substantial equivalence"; "FDA meetings", "De Novo request" keep their case. */
function inSentence(text: string): string {
  return /^\p{Lu}\p{Ll}*(?![\p{L}\p{N}])(?!\s+\p{Lu})/u.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
}

/** The words of a heading, lower case, a plural's `s` dropped: what makes two headings alike. */
const stems = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}()]+/u)
    .filter(Boolean)
    .map((w) => (w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w));

/**
 * Whether a noun phrase is plural: two things joined by "and", or a head noun (the last word
 * before "of", "by", "for" or "in") ending in a plural `s`. "Types of 510(k)", "Inputs and
 * outputs" are; "Substantial equivalence", "Phase 1" are not.
 */
function isPlural(phrase: string): boolean {
  const head = phrase.split(/\s+(?:of|by|for|in|on|with)\s+/i)[0];
  if (/\s+and\s+/i.test(head)) return true;
  return /[^siu]s$/i.test(head.split(" ").at(-1) ?? head);
}

/**
 * "What a PMA must show" → "What must a PMA show", "What an IND contains" → "What does an IND
 * contain": a heading worded as an indirect question, asked directly.
 */
function direct(heading: string): string {
  const modal =
    /^(what|how|why|when|where)\s+((?:a|an|the|this|your|its)\s+.+?)\s+(must|should|can|may|will|is|are)\s+(.+)$/i.exec(
      heading,
    );
  if (modal) return `${modal[1]} ${modal[3]} ${modal[2]} ${modal[4]}`;
  const verb = /^(what|how|why|when|where)\s+((?:a|an|the|this|your|its)\s+\S+)\s+(\p{Ll}+)s$/iu.exec(heading);
  if (verb) return `${verb[1]} does ${verb[2]} ${verb[3]}`;
  return heading;
}

/**
 * A question a person would ask about one section of a document: a heading that is already a
 * question is asked as it is; "What a PMA must show" directly; a noun phrase as "What is …?" or
 * "What are …?". Where the heading's words are not the document's own (they appear in other
 * documents' headings too, or only name a part such as "Benefits"), the document's title says
 * what the question is about. Null when it would not fit on a chip.
 */
function questionFor(heading: string, title: string, sharedStems: Set<string>): string | null {
  const raw = heading.replace(/\s+/g, " ").trim();
  const text = clean(raw);
  if (!text) return null;
  const about = inSentence(title);
  const content = stems(text).filter((w) => !PART_WORDS.has(w));
  // One word ("Ingredients", "Testing") or only words other documents' headings share: the
  // title says which document the question is about.
  const distinctive = content.length > 1 && content.some((w) => !sharedStems.has(w));
  const ofTitle = distinctive ? "" : ` of ${about}`;
  let q: string;
  if (raw.endsWith("?") || (QUESTION_START.test(text) && !WH_WORD.test(text))) q = `${text.replace(/\?+$/, "")}?`;
  else if (WH_WORD.test(text)) {
    // "Which medicines must use it": the document is what "it" stands for.
    q = `${direct(text).replace(/\bit\b/, `the ${about}`)}?`;
  } else if (/^(after|before|during|once|until)\b/i.test(text)) q = `What happens ${inSentence(text)}${ofTitle}?`;
  else if (/^\p{L}+ing\b/u.test(text))
    q = `What does ${inSentence(text)} involve${distinctive ? "" : ` for ${about}`}?`;
  else {
    const np = inSentence(text);
    const verb = isPlural(text) ? "are" : "is";
    const article = ofTitle || /\s+of\s+/i.test(np) ? "the " : "";
    q = `What ${verb} ${article}${np}${ofTitle}?`;
  }
  q = q[0].toUpperCase() + q.slice(1);
  return q.length <= MAX_SUGGESTION_CHARS ? q : null;
}

/** Words of the agent's subject (its name, domain and description) that can name a document's. */
const subjectWords = (subject: string) => new Set(stems(subject).filter((w) => w.length > 2 && !PART_WORDS.has(w)));

/** A suggested question and the document it was made from (what answers it). */
export interface Suggestion {
  question: string;
  document: string;
}

/**
 * Questions a new chat offers, from the outlines of the knowledge the agent answers from:
 * documents on the agent's own subject first (the words of its name and description in the
 * document's title and headings), then the first section of each document in turn, then each
 * document's next section. Deterministic: the same knowledge gives the same suggestions.
 */
export function suggestionsFromOutlines(
  outlines: DocumentOutline[],
  subject = "",
  count = SUGGESTION_COUNT,
): Suggestion[] {
  const docs = outlines
    .map((o) => {
      const title = clean(o.title);
      const sections = o.sections.map(clean).filter((s) => s && s.toLowerCase() !== title.toLowerCase());
      return { title, sections };
    })
    .filter((d) => d.title);
  // A heading word two documents share says nothing about which one a question is about.
  const seen = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d.sections.flatMap(stems))) seen.set(w, (seen.get(w) ?? 0) + 1);
  const shared = new Set([...seen].filter(([, n]) => n > 1).map(([w]) => w));
  const wanted = subjectWords(subject);
  const onSubject = (d: (typeof docs)[number]) =>
    new Set([d.title, ...d.sections].flatMap(stems).filter((w) => wanted.has(w))).size;
  const ranked = docs.map((d, i) => ({ d, i, score: onSubject(d) })).sort((a, b) => b.score - a.score || a.i - b.i);

  const out: Suggestion[] = [];
  const add = (question: string | null, document: string) => {
    if (question && out.length < count && !out.some((s) => s.question === question)) out.push({ question, document });
  };
  const depth = Math.max(1, ...docs.map((d) => d.sections.length));
  for (let i = 0; i < depth && out.length < count; i++) {
    for (const { d } of ranked) {
      if (i < d.sections.length) add(questionFor(d.sections[i], d.title, shared), d.title);
      else if (i === 0) add(questionFor(d.title, d.title, shared), d.title);
    }
  }
  return out;
}

/** The questions alone, as a new chat shows them. */
export function questionsFromOutlines(outlines: DocumentOutline[], count = SUGGESTION_COUNT, subject = ""): string[] {
  return suggestionsFromOutlines(outlines, subject, count).map((s) => s.question);
}

/**
 * The questions a new chat with an agent searching `domains` suggests (none without knowledge),
 * each with the document it was made from. `subject` is what the agent is about (its name,
 * domain and description): its own documents come first.
 */
export async function suggestionsFor(scope: TenantScope, domains: string[], subject = ""): Promise<Suggestion[]> {
  return suggestionsFromOutlines(await documentOutlines(scope, domains, OUTLINE_DOCUMENTS), subject);
}

export async function suggestedQuestions(scope: TenantScope, domains: string[], subject = ""): Promise<string[]> {
  return (await suggestionsFor(scope, domains, subject)).map((s) => s.question);
}
