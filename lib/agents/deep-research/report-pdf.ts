import "server-only";

import { type FinalReport, QUALITY_DIMENSIONS } from "./contract";
import { reportDate, reportLabels, sourceLocation } from "./report-markdown";

// A FinalReport as a real PDF file, written with pdfkit's standard fonts. Those fonts encode text
// as WinAnsi (Windows-1252), which holds German (ä ö ü ß „ “ €) and the rest of Western Europe;
// a character outside it would print as a wrong glyph, so it is replaced by its plain form first.

/** Windows-1252's characters above Latin-1's printable ASCII that are not Latin-1 themselves. */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
const PLAIN: Record<string, string> = {
  "≥": ">=",
  "≤": "<=",
  "≠": "!=",
  "→": "->",
  "←": "<-",
  "✓": "+",
  "✗": "x",
  "′": "'",
  "″": '"',
  "\u00a0": " ",
  "\u2009": " ",
  "\u202f": " ",
};

/** Text the standard fonts can show: WinAnsi kept as it is, anything else in its nearest plain form. */
export function winAnsi(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code === 10 || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) {
      out += PLAIN[ch] ?? ch;
    } else if (PLAIN[ch] !== undefined) {
      out += PLAIN[ch];
    } else if (code === 9) {
      out += " ";
    } else {
      // A letter with a mark WinAnsi lacks (ő, č) keeps its base letter; anything else shows as "?".
      const base = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out +=
        [...base].every((c) => (c.codePointAt(0) ?? 0) >= 0x20 && (c.codePointAt(0) ?? 0) <= 0x7e) && base ? base : "?";
    }
  }
  return out;
}

/** Markdown's inline marks, which the PDF does not render: **bold**, *em*, `code`, [text](url). */
function plainInline(text: string): string {
  return text
    .replace(/\[([^\]]+)\]\((?:[^)]+)\)/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[^*\w])[*_]([^*_\n]+)[*_](?=[^*\w]|$)/g, "$1$2")
    .replace(/`([^`]+)`/g, "$1");
}

const TIERS = ["primary", "secondary", "tertiary"] as const;
const MARGIN = 56;

/** The report as a PDF (A4): the same sections, in the same language, as the Markdown export. */
export async function reportPdf(report: FinalReport): Promise<Buffer> {
  // Loaded on the first export: every process that imports the server paid for it (about
  // 0.3 s of CPU), and most never write a PDF.
  const { default: PDFDocument } = await import("pdfkit");
  const l = reportLabels(report.language);
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    info: { Title: winAnsi(`${l.title}: ${report.query}`), Creator: "Vigil" },
    lang: report.language,
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const text = (value: string, options: PDFKit.Mixins.TextOptions = {}) =>
    doc.text(winAnsi(value), { width, ...options });
  const heading = (value: string, size = 14) => {
    doc.moveDown(0.8).font("Helvetica-Bold").fontSize(size);
    text(value);
    doc.moveDown(0.3).font("Helvetica").fontSize(10.5);
  };
  const bullet = (value: string, indent = 0) => text(`•  ${value}`, { indent: 10 + indent });

  doc.font("Helvetica-Bold").fontSize(18);
  text(`${l.title}: ${report.query}`);
  doc.moveDown(0.3).font("Helvetica-Oblique").fontSize(9).fillColor("#555555");
  text(`${l.created}: ${reportDate(report.created_at, report.language)}`);
  text(`${l.engine}: ${report.engine === "offline" ? l.offline : report.engine}`);
  if (report.termination_reason) text(`${l.clarificationEnded}: ${l.terminations[report.termination_reason]}`);
  doc.fillColor("#000000").font("Helvetica").fontSize(10.5);
  if (report.drift_warning) {
    doc.moveDown(0.5).font("Helvetica-Bold").fillColor("#9a3412");
    text(`${l.drift}: ${report.drift_warning}`);
    doc.font("Helvetica").fillColor("#000000");
  }

  heading(l.answer);
  for (const block of report.answer.trim().split(/\n\s*\n/)) {
    for (const line of block.split("\n")) {
      const head = /^#{1,6}\s+(.*)$/.exec(line);
      const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
      if (head) {
        doc.font("Helvetica-Bold");
        text(plainInline(head[1]));
        doc.font("Helvetica");
      } else if (item) bullet(plainInline(item[1]));
      else text(plainInline(line.replace(/^>\s?/, "")));
    }
    doc.moveDown(0.5);
  }

  heading(l.findings);
  if (TIERS.every((t) => report.findings[t].length === 0)) text(l.none);
  for (const tier of TIERS) {
    const items = report.findings[tier];
    if (items.length === 0) continue;
    doc.font("Helvetica-Bold");
    text(l.tiers[tier]);
    doc.font("Helvetica");
    for (const f of items) bullet(plainInline(f));
    doc.moveDown(0.4);
  }

  heading(l.quotes);
  const [open, close] = report.language === "de" ? ["„", "“"] : ["“", "”"];
  if (report.quotes.length === 0) text(l.none);
  for (const q of report.quotes) {
    doc.font("Helvetica-Oblique");
    // Verbatim: the quote is an exact substring of its passage, so it is printed as it stands.
    text(`${open}${q.quote}${close}`, { indent: 14 });
    doc.font("Helvetica").fontSize(9).fillColor("#555555");
    text(`— ${[q.source, q.page !== null ? `${l.page} ${q.page}` : null].filter(Boolean).join(", ")}`, { indent: 14 });
    doc.fontSize(10.5).fillColor("#000000").moveDown(0.4);
  }

  heading(l.sources);
  if (report.sources.length === 0) text(l.none);
  for (const s of [...report.sources].sort((a, b) => a.n - b.n)) {
    text(`[${s.n}] ${sourceLocation(s, l)} (${l.tiers[TIERS[s.tier - 1]]})`);
  }

  heading(l.quality);
  for (const d of QUALITY_DIMENSIONS) {
    const dim = report.quality.dimensions[d];
    doc.font("Helvetica-Bold");
    text(`${l.dimensions[d]}: ${dim.score}/100`);
    doc.font("Helvetica").fontSize(9).fillColor("#555555");
    text(dim.basis, { indent: 10 });
    doc.fontSize(10.5).fillColor("#000000");
  }
  doc.moveDown(0.3).font("Helvetica-Bold");
  text(`${l.total}: ${report.quality.total}/400`);
  doc.font("Helvetica");

  heading(l.claims);
  if (report.claims.length === 0) text(l.none);
  for (const c of report.claims) {
    const refs = c.sources.map((n) => `[${n}]`).join("");
    bullet(`${c.verified ? l.verified : l.notVerified}: ${c.text}${refs ? ` ${refs}` : ""}`);
    for (const p of c.verified ? [] : c.problems) bullet(p, 14);
  }

  doc.end();
  return done;
}
