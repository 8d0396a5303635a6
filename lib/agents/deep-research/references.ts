// References inside a passage that research follows: numbered sections ("Section 4.2",
// "Abschnitt 3"), paragraphs ("§ 5"), annexes ("see Annex II", "Anhang II") and another
// document of the tenant named by its title.

export interface DetectedReference {
  type: "section" | "document";
  /** What to look for: "4.2", "§ 5", "Annex II", or a document's title. */
  target: string;
  /** Set for a document reference: the document it names. */
  documentId?: string;
}

const SECTION = /\b(?:Section|Sec\.|Abschnitt|Kapitel|Chapter)\s+(\d+(?:\.\d+)*)/gi;
const PARAGRAPH = /§\s*(\d+[a-z]?)/g;
const ANNEX = /\b(Annex|Anhang|Appendix|Anlage)\s+([IVXLC]+|\d+|[A-Z])\b/g;

/** The references in `text`, each once; titles of other documents count when at least 8 characters. */
export function detectReferences(
  text: string,
  documents: readonly { id: string; title: string }[],
  ownDocumentId: string,
): DetectedReference[] {
  const found = new Map<string, DetectedReference>();
  const add = (ref: DetectedReference) => found.set(`${ref.type}:${ref.target.toLowerCase()}`, ref);
  for (const m of text.matchAll(SECTION)) add({ type: "section", target: m[1] });
  for (const m of text.matchAll(PARAGRAPH)) add({ type: "section", target: `§ ${m[1]}` });
  for (const m of text.matchAll(ANNEX)) add({ type: "section", target: `${m[1]} ${m[2]}` });
  const lower = text.toLowerCase();
  for (const doc of documents) {
    if (doc.id === ownDocumentId || doc.title.length < 8) continue;
    if (lower.includes(doc.title.toLowerCase())) add({ type: "document", target: doc.title, documentId: doc.id });
  }
  return [...found.values()];
}

/**
 * A POSIX pattern (PostgreSQL `~*`) that finds a section reference's target in a chunk's heading
 * path: "4.2" not inside "14.2" or "4.21"; "Annex II" not "Annex III"; "§ 5" not "§ 51".
 */
export function sectionPattern(target: string): string {
  const esc = target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s*");
  const annex = /^(annex|anhang|appendix|anlage)\s/i.test(target);
  const head = annex ? "(annex|anhang|appendix|anlage)\\s*" : "";
  const body = annex ? esc.replace(/^[^\\]+\\s\*/, "") : esc;
  return `(^|[^0-9.a-z])${head}${body}([^0-9a-z]|$)`;
}

/** Reference following stops at this depth (the passage a task found is depth 0). */
export const REFERENCE_MAX_DEPTH = 2;
