/**
 * A Markdown document of about `bytes` bytes: sections of paragraphs drawn from a vocabulary of
 * a few thousand made-up words (so postings and document frequencies look like real text's),
 * with `marker` once near the end. Deterministic for a given size and marker.
 */
export function largeMarkdown(bytes: number, marker: string): string {
  const vocabulary = Array.from({ length: 3000 }, (_, i) => `w${(i * 7919).toString(36)}x`);
  let seed = bytes;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const parts: string[] = [`# Large handbook ${marker.slice(0, 4)}\n`];
  let size = parts[0].length;
  for (let section = 0; size < bytes; section++) {
    const heading = `\n## Section ${section}\n\n`;
    parts.push(heading);
    size += heading.length;
    for (let p = 0; p < 12 && size < bytes; p++) {
      const words = Array.from(
        { length: 90 },
        (_, k) => vocabulary[next() % vocabulary.length] + (k % 15 === 14 ? "." : ""),
      );
      const paragraph = `${words.join(" ")}.\n\n`;
      parts.push(paragraph);
      size += paragraph.length;
    }
  }
  parts.push(`## Closing\n\nThe ${marker} procedure closes the handbook.\n`);
  return parts.join("");
}
