// A FinalReport as a Markdown document: what the "Markdown" download of a research report holds,
// and the wording the PDF export shares. Headings are in the report's language, because a German
// reader should not get a German answer framed by English headings.
import {
  type FinalReport,
  QUALITY_DIMENSIONS,
  type QualityDimension,
  type ReportSource,
  type ResearchLanguage,
  type TerminationReason,
} from "./contract";

export interface ReportLabels {
  title: string;
  question: string;
  answer: string;
  findings: string;
  tiers: Record<"primary" | "secondary" | "tertiary", string>;
  quotes: string;
  sources: string;
  quality: string;
  dimension: string;
  score: string;
  basis: string;
  total: string;
  dimensions: Record<QualityDimension, string>;
  claims: string;
  verified: string;
  notVerified: string;
  page: string;
  section: string;
  drift: string;
  clarificationEnded: string;
  terminations: Record<TerminationReason, string>;
  engine: string;
  offline: string;
  created: string;
  none: string;
}

const LABELS: Record<ResearchLanguage, ReportLabels> = {
  en: {
    title: "Research report",
    question: "Question",
    answer: "Answer",
    findings: "Findings",
    tiers: { primary: "Primary", secondary: "Secondary", tertiary: "Tertiary" },
    quotes: "Quotes",
    sources: "Sources",
    quality: "Quality",
    dimension: "Dimension",
    score: "Score",
    basis: "Basis",
    total: "Total",
    dimensions: { relevance: "Relevance", coverage: "Coverage", groundedness: "Groundedness", language: "Language" },
    claims: "Claims and their verification",
    verified: "verified",
    notVerified: "not verified",
    page: "page",
    section: "section",
    drift: "Drift warning",
    clarificationEnded: "Clarification ended",
    terminations: {
      user_end: "ended by the user",
      max_iterations: "after the maximum number of rounds",
      convergence: "the question was clear enough",
    },
    engine: "Written by",
    offline: "the offline engine (no model)",
    created: "Created",
    none: "None.",
  },
  de: {
    title: "Recherchebericht",
    question: "Frage",
    answer: "Antwort",
    findings: "Ergebnisse",
    tiers: { primary: "Primär", secondary: "Sekundär", tertiary: "Tertiär" },
    quotes: "Zitate",
    sources: "Quellen",
    quality: "Qualität",
    dimension: "Dimension",
    score: "Punkte",
    basis: "Grundlage",
    total: "Gesamt",
    dimensions: { relevance: "Relevanz", coverage: "Abdeckung", groundedness: "Belegtheit", language: "Sprache" },
    claims: "Aussagen und ihre Prüfung",
    verified: "geprüft",
    notVerified: "nicht geprüft",
    page: "Seite",
    section: "Abschnitt",
    drift: "Warnung: Themenabweichung",
    clarificationEnded: "Klärung beendet",
    terminations: {
      user_end: "vom Nutzer beendet",
      max_iterations: "nach der höchsten Zahl an Runden",
      convergence: "die Frage war klar genug",
    },
    engine: "Verfasst von",
    offline: "der Offline-Engine (ohne Modell)",
    created: "Erstellt",
    none: "Keine.",
  },
};

/** The wording of a report's headings and marks in its language (English for anything else). */
export function reportLabels(language: string): ReportLabels {
  return language === "de" ? LABELS.de : LABELS.en;
}

/** Where a source is: "Handbook.docx, section 4.2, page 12" (the parts it has). */
export function sourceLocation(source: Pick<ReportSource, "document" | "section" | "page">, labels: ReportLabels) {
  return [
    source.document,
    source.section ? `${labels.section} ${source.section}` : null,
    source.page !== null ? `${labels.page} ${source.page}` : null,
  ]
    .filter(Boolean)
    .join(", ");
}

/** The report's date as a reader of its language writes it, in UTC so every export agrees. */
export function reportDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language === "de" ? "de-DE" : "en-GB", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(date);
}

/** A line of text that may not break a table row or start a block of its own. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

function blockquote(text: string): string {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => (line ? `> ${line}` : ">"))
    .join("\n");
}

const TIERS = ["primary", "secondary", "tertiary"] as const;

/** The report as one Markdown document: title, answer with [n], findings by tier, quotes, sources, quality, claims. */
export function reportMarkdown(report: FinalReport): string {
  const l = reportLabels(report.language);
  const out: string[] = [];
  out.push(`# ${l.title}: ${cell(report.query)}`, "");
  const meta = [
    `${l.created}: ${reportDate(report.created_at, report.language)}`,
    `${l.engine}: ${report.engine === "offline" ? l.offline : report.engine}`,
  ];
  if (report.termination_reason) {
    meta.push(`${l.clarificationEnded}: ${l.terminations[report.termination_reason]}`);
  }
  out.push(meta.map((m) => `*${m}*`).join("  \n"), "");
  if (report.drift_warning) out.push(`> **${l.drift}:** ${cell(report.drift_warning)}`, "");

  // The answer's own headings nest under "Answer" rather than break the report's outline.
  const answer = report.answer.trim().replace(/^(#{1,4})(?=\s)/gm, "##$1");
  out.push(`## ${l.answer}`, "", answer, "");

  out.push(`## ${l.findings}`, "");
  for (const tier of TIERS) {
    const items = report.findings[tier];
    if (items.length === 0) continue;
    out.push(`### ${l.tiers[tier]}`, "", ...items.map((f) => `- ${cell(f)}`), "");
  }
  if (TIERS.every((t) => report.findings[t].length === 0)) out.push(l.none, "");

  out.push(`## ${l.quotes}`, "");
  if (report.quotes.length === 0) out.push(l.none, "");
  for (const q of report.quotes) {
    const where = [q.source, q.page !== null ? `${l.page} ${q.page}` : null].filter(Boolean).join(", ");
    out.push(blockquote(q.quote), ">", `> — ${cell(where)}`, "");
  }

  out.push(`## ${l.sources}`, "");
  if (report.sources.length === 0) out.push(l.none, "");
  for (const s of [...report.sources].sort((a, b) => a.n - b.n)) {
    // A fallback search result carries its address, so a reader can open it.
    const url = s.url ? ` <${s.url}>` : "";
    out.push(`${s.n}. ${cell(sourceLocation(s, l))}${url} (${l.tiers[TIERS[s.tier - 1]]})`);
  }
  if (report.sources.length > 0) out.push("");

  out.push(`## ${l.quality}`, "", `| ${l.dimension} | ${l.score} | ${l.basis} |`, "|---|---:|---|");
  for (const d of QUALITY_DIMENSIONS) {
    const dim = report.quality.dimensions[d];
    out.push(`| ${l.dimensions[d]} | ${dim.score}/100 | ${cell(dim.basis)} |`);
  }
  out.push(`| **${l.total}** | **${report.quality.total}/400** | |`, "");

  out.push(`## ${l.claims}`, "");
  if (report.claims.length === 0) out.push(l.none, "");
  for (const c of report.claims) {
    const refs = c.sources.map((n) => `[${n}]`).join("");
    const mark = c.verified ? `✓ ${l.verified}` : `✗ ${l.notVerified}`;
    out.push(`- ${mark}: ${cell(c.text)}${refs ? ` ${refs}` : ""}`);
    for (const p of c.verified ? [] : c.problems) out.push(`  - ${cell(p)}`);
  }
  out.push("");
  return `${out.join("\n").trimEnd()}\n`;
}
