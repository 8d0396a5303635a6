import { convert, type FormatCallback, type SelectorDefinition } from "html-to-text";
import { MAX_UPLOAD_BYTES } from "./contract";

// Headings come out as Markdown headings ("## Title"), so the Markdown parser recovers the
// section path from converted HTML exactly as from a Markdown file.
const markdownHeading: FormatCallback = (elem, walk, builder, formatOptions) => {
  const level = Number((formatOptions as { level?: number }).level ?? 1);
  builder.openBlock({ leadingLineBreaks: 2 });
  walk(elem.children, builder);
  builder.closeBlock({
    trailingLineBreaks: 2,
    blockTransform: (text) => `${"#".repeat(level)} ${text.replace(/\s*\n\s*/g, " ").trim()}`,
  });
};

const headingSelectors: SelectorDefinition[] = [1, 2, 3, 4, 5, 6].map((level) => ({
  selector: `h${level}`,
  format: "markdownHeading",
  options: { level },
}));

const OPTIONS = {
  wordwrap: false as const,
  formatters: { markdownHeading },
  selectors: [
    ...headingSelectors,
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    { selector: "nav", format: "skip" },
    { selector: "script", format: "skip" },
    { selector: "style", format: "skip" },
  ],
  // The upload limit already bounds the input; the library's own default would truncate below it.
  limits: { maxInputLength: MAX_UPLOAD_BYTES + 1 },
};

/** HTML to Markdown-flavoured text (headings kept as `#` lines) plus the page's <title>. */
export function htmlToMarkdown(html: string): { title: string | null; text: string } {
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = titleMatch ? convert(titleMatch[1], { wordwrap: false }).replace(/\s+/g, " ").trim() || null : null;
  const body = html.replace(/<head[\s\S]*?<\/head>/i, "");
  return { title, text: convert(body, OPTIONS) };
}
