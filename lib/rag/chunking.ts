import { type Block, sectionOf } from "./blocks";

/** Chunk size limit in characters: long enough to carry an argument, short enough to cite. */
export const CHUNK_MAX = 1200;

export interface ChunkDraft {
  ord: number;
  section: string | null;
  page: number | null;
  text: string;
}

const sentenceSegmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** Sentences of a paragraph, each with its trailing space trimmed. */
export function sentencesOf(text: string): string[] {
  return Array.from(sentenceSegmenter.segment(text), (s) => s.segment.trim()).filter(Boolean);
}

/** Splits an over-long run of text (a sentence without stops, a table row) at word breaks. */
function hardSplit(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(" ", max);
    if (cut < max / 2) cut = max;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

interface Unit {
  text: string;
  /** The unit starts a paragraph: it is joined to the previous one with a blank line. */
  paragraphStart: boolean;
}

/** A paragraph as one unit when it fits, else as its sentences (and those split if need be). */
function unitsOf(paragraph: string): Unit[] {
  if (paragraph.length <= CHUNK_MAX) return [{ text: paragraph, paragraphStart: true }];
  const pieces = sentencesOf(paragraph).flatMap((s) => (s.length <= CHUNK_MAX ? [s] : hardSplit(s, CHUNK_MAX)));
  return pieces.map((text, i) => ({ text, paragraphStart: i === 0 }));
}

/**
 * Cuts a run of paragraphs that share one section and page into chunks of at most CHUNK_MAX
 * characters, breaking only between paragraphs or sentences. The run is split into equal-ish
 * parts (a 2,500-character section gives three of ~830), so a section slightly over the
 * maximum becomes two halves rather than a full chunk and a scrap.
 */
function chunkRun(paragraphs: string[]): string[] {
  const units = paragraphs.flatMap(unitsOf);
  const total = units.reduce((n, u) => n + u.text.length + 1, 0);
  const parts = Math.max(1, Math.ceil(total / CHUNK_MAX));
  const target = total / parts;
  const chunks: string[] = [];
  let current = "";
  for (const unit of units) {
    const joined = current ? `${current}${unit.paragraphStart ? "\n\n" : " "}${unit.text}` : unit.text;
    if (current && (joined.length > CHUNK_MAX || current.length >= target)) {
      chunks.push(current);
      current = unit.text;
    } else {
      current = joined;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * Chunks keep their place in the document: a chunk never spans two sections or two PDF pages,
 * so its section path and page number are exact and a citation can point at them.
 */
export function chunkBlocks(blocks: Block[], title: string | null): ChunkDraft[] {
  const chunks: ChunkDraft[] = [];
  let run: string[] = [];
  let runSection: string | null = null;
  let runPage: number | null = null;
  const flush = () => {
    for (const text of chunkRun(run)) chunks.push({ ord: chunks.length, section: runSection, page: runPage, text });
    run = [];
  };
  for (const block of blocks) {
    const section = sectionOf(block.headings, title);
    if (run.length > 0 && (section !== runSection || block.page !== runPage)) flush();
    runSection = section;
    runPage = block.page;
    run.push(block.text);
  }
  if (run.length > 0) flush();
  return chunks;
}
