import type { TenantScope } from "@/lib/db";
import { type DocumentOutline, documentOutlines } from "@/lib/rag";

/** How many questions a new chat suggests. */
export const SUGGESTION_COUNT = 4;
/** Suggestions come from this many of the newest documents in the agent's domains. */
const OUTLINE_DOCUMENTS = 8;
/** A suggestion longer than this would not read as a chip; a shorter form is used instead. */
const MAX_SUGGESTION_CHARS = 110;

function clean(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.,;:!?…–—-]+$/u, "");
}

/** "Substantial equivalence" → "substantial equivalence"; "FDA meetings" and "MedDRA coding" keep their case. */
function inSentence(heading: string): string {
  return /^\p{Lu}\p{Ll}*(?![\p{L}\p{N}])/u.test(heading) ? heading[0].toLowerCase() + heading.slice(1) : heading;
}

function questionAbout(title: string, section: string | null): string | null {
  if (section) {
    const q = `What does ${title} say about ${inSentence(section)}?`;
    if (q.length <= MAX_SUGGESTION_CHARS) return q;
  }
  const q = `What are the key points of ${title}?`;
  return q.length <= MAX_SUGGESTION_CHARS ? q : null;
}

/**
 * Questions a new chat offers, from the outlines of the knowledge the agent answers from: the
 * first section of each document in turn, then each document's next section, so a few
 * documents still give a full set and many give one question each. Deterministic: the same
 * knowledge gives the same suggestions.
 */
export function questionsFromOutlines(outlines: DocumentOutline[], count = SUGGESTION_COUNT): string[] {
  const docs = outlines
    .map((o) => {
      const title = clean(o.title);
      const sections = o.sections.map(clean).filter((s) => s && s.toLowerCase() !== title.toLowerCase());
      return { title, sections };
    })
    .filter((d) => d.title);
  const questions: string[] = [];
  const add = (q: string | null) => {
    if (q && questions.length < count && !questions.includes(q)) questions.push(q);
  };
  const depth = Math.max(1, ...docs.map((d) => d.sections.length));
  for (let i = 0; i < depth && questions.length < count; i++) {
    for (const doc of docs) {
      if (i === 0 || i < doc.sections.length) add(questionAbout(doc.title, doc.sections[i] ?? null));
    }
  }
  return questions;
}

/** The questions a new chat with an agent searching `domains` suggests (none without knowledge). */
export async function suggestedQuestions(scope: TenantScope, domains: string[]): Promise<string[]> {
  return questionsFromOutlines(await documentOutlines(scope, domains, OUTLINE_DOCUMENTS));
}
