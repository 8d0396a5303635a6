import type { KnowledgeChunk } from "./api";

/** "Page 3", "Pages 3–5", or "" for chunks without pages. */
export function pageRange(first: number | null, last: number | null): string {
  if (first === null) return "";
  if (last === null || last === first) return `Page ${first}`;
  return `Pages ${first}–${last}`;
}

interface Group {
  section: string | null;
  chunks: KnowledgeChunk[];
}

/** Consecutive chunks under one heading path, in order. */
function groupsOf(chunks: KnowledgeChunk[]): Group[] {
  const groups: Group[] = [];
  for (const chunk of chunks) {
    const last = groups.at(-1);
    if (last && last.section === chunk.section) last.chunks.push(chunk);
    else groups.push({ section: chunk.section, chunks: [chunk] });
  }
  return groups;
}

/**
 * Chunks as the index holds them, grouped by section. A document without headings (plain text,
 * PDF) is one run, shown without a section heading.
 */
export function ChunkList({ chunks, hasSections }: { chunks: KnowledgeChunk[]; hasSections: boolean }) {
  return (
    <div className="space-y-6">
      {groupsOf(chunks).map((group) => {
        const pages = group.chunks.map((c) => c.page).filter((p): p is number => p !== null);
        const range = pages.length > 0 ? pageRange(Math.min(...pages), Math.max(...pages)) : "";
        return (
          <section
            key={group.chunks[0].id}
            data-testid="section-group"
            aria-label={group.section ?? "Before the first heading"}
            className="space-y-3"
          >
            {hasSections && (
              <h3 className="flex flex-wrap items-baseline gap-x-3 border-b border-slate-200 pb-1 font-medium dark:border-slate-800">
                <span data-testid="section-title">{group.section ?? "Before the first heading"}</span>
                {range && <span className="text-xs font-normal text-slate-500 dark:text-slate-400">{range}</span>}
              </h3>
            )}
            <ol className="space-y-3">
              {group.chunks.map((chunk) => (
                <li
                  key={chunk.id}
                  data-testid="chunk"
                  data-ord={chunk.ord}
                  className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
                >
                  <div className="mb-1 flex flex-wrap gap-x-3 text-xs text-slate-500 dark:text-slate-400">
                    <span>Chunk {chunk.ord}</span>
                    {chunk.page !== null && <span data-testid="chunk-page">Page {chunk.page}</span>}
                    <span>{chunk.tokenCount} tokens</span>
                  </div>
                  <p className="whitespace-pre-wrap break-words text-sm">{chunk.text}</p>
                </li>
              ))}
            </ol>
          </section>
        );
      })}
    </div>
  );
}
