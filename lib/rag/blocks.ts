/** A paragraph of extracted text with where it sits: its heading path and (PDF) page. */
export interface Block {
  /** Headings above the paragraph, outermost first ("" for a skipped level). */
  headings: string[];
  page: number | null;
  text: string;
}

export const SECTION_SEPARATOR = " › ";

/**
 * The section a paragraph belongs to, as a heading path. The document's title heading is left
 * out: every chunk already carries the title, and repeating it would only lengthen citations.
 */
export function sectionOf(headings: string[], title: string | null): string | null {
  const path = headings.filter(Boolean);
  if (title !== null && headings[0] === title) path.shift();
  return path.length > 0 ? path.join(SECTION_SEPARATOR) : null;
}
