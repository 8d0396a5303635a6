import { describe, expect, it } from "vitest";
import { reportMarkdown } from "@/lib/agents";
import { ENGLISH_REPORT, GERMAN_REPORT } from "./fixtures";

/** The lines under a `## heading`, up to the next one. */
function section(markdown: string, heading: string): string[] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(`## ${heading}`);
  expect(start, `heading "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line.trim() !== "");
}

describe("reportMarkdown", () => {
  it("writes a German report with German headings, the answer's citations and its quotes with document and page", () => {
    const md = reportMarkdown(GERMAN_REPORT);
    expect(md.split("\n")[0]).toBe(`# Recherchebericht: ${GERMAN_REPORT.query}`);
    expect(md).toContain("*Klärung beendet: vom Nutzer beendet*");
    expect(md).toContain("*Verfasst von: der Offline-Engine (ohne Modell)*");
    expect(md).toContain("> **Warnung: Themenabweichung:** 35 % des Kontexts");
    const answer = section(md, "Antwort").join("\n");
    expect(answer).toContain("**20 Millisievert** im Kalenderjahr [1]");
    expect(answer).toContain("rund 45 € im Monat [3]");
    expect(section(md, "Ergebnisse")).toEqual([
      "### Primär",
      "- Effektive Dosis: höchstens 20 mSv je Kalenderjahr (§ 78 Abs. 1).",
      "### Sekundär",
      "- Augenlinse: 20 mSv je Kalenderjahr, gemäß § 78 Abs. 2.",
      "### Tertiär",
      "- Messkosten je Stelle: 45 € im Monat.",
    ]);
    expect(section(md, "Zitate")).toEqual([
      `> ${GERMAN_REPORT.quotes[0].quote}`,
      ">",
      "> — Strahlenschutzverordnung.docx, Seite 12",
    ]);
    expect(section(md, "Quellen")).toEqual([
      "1. Strahlenschutzverordnung.docx, Abschnitt § 78 Grenzwerte für beruflich exponierte Personen, Seite 12 (Primär)",
      "2. Strahlenschutzverordnung.docx, Seite 13 (Sekundär)",
      "3. Kostenübersicht Überwachung.docx, Abschnitt Gebühren (Tertiär)",
    ]);
  });

  it("tabulates the four quality dimensions and their total out of 400, and marks each claim", () => {
    const md = reportMarkdown(GERMAN_REPORT);
    expect(section(md, "Qualität")).toEqual([
      "| Dimension | Punkte | Grundlage |",
      "|---|---:|---|",
      "| Relevanz | 91/100 | 10 von 11 Begriffen der Frage im Bericht |",
      "| Abdeckung | 67/100 | 2 von 3 Aufgaben mit Belegen |",
      "| Belegtheit | 50/100 | 1 von 2 Aussagen geprüft |",
      "| Sprache | 79/100 | Sprache erkannt: Deutsch (Anteil 0,79) |",
      "| **Gesamt** | **287/400** | |",
    ]);
    expect(section(md, "Aussagen und ihre Prüfung")).toEqual([
      "- ✓ geprüft: Der Grenzwert der effektiven Dosis beträgt 20 Millisievert im Kalenderjahr. [1]",
      "- ✗ nicht geprüft: Die Überwachung kostet je Messstelle rund 45 € im Monat. [3]",
      "  - „45“ steht nicht in Quelle [3].",
    ]);
  });

  it("writes an English report in English, sources in citation order, and no empty tier", () => {
    const md = reportMarkdown(ENGLISH_REPORT);
    expect(md.split("\n")[0]).toBe("# Research report: How long must incident records be retained?");
    expect(md).toContain("*Written by: scripted-model*");
    expect(md).toContain("*Clarification ended: the question was clear enough*");
    expect(md).not.toContain("Drift warning");
    expect(md).not.toMatch(/Antwort|Quellen|Seite/);
    expect(section(md, "Answer")).toEqual([
      "#### Retention",
      "Incident records are kept for **seven years** after closure [1]. Records with a pending claim are kept until the claim is settled [2].",
      "- Backups follow the same rule [1].",
    ]);
    expect(section(md, "Findings")).toEqual([
      "### Primary",
      "- Incident records: seven years after closure (section 4.2).",
      "### Secondary",
      "- Pending claims extend retention until settlement.",
    ]);
    expect(section(md, "Sources")).toEqual([
      "1. Records Policy.docx, section 4.2 Retention, page 4 (Primary)",
      "2. Claims Handbook.docx, section Annex II, page 9 (Secondary)",
    ]);
    expect(section(md, "Quality").at(-1)).toBe("| **Total** | **352/400** | |");
    expect(section(md, "Claims and their verification")).toEqual([
      "- ✓ verified: Incident records are kept for seven years after closure. [1]",
    ]);
  });

  it("keeps a table row and a quote whole when their text has a pipe or several lines", () => {
    const md = reportMarkdown({
      ...ENGLISH_REPORT,
      quality: {
        ...ENGLISH_REPORT.quality,
        dimensions: { ...ENGLISH_REPORT.quality.dimensions, relevance: { score: 88, basis: "a | b\nc" } },
      },
      quotes: [{ ...ENGLISH_REPORT.quotes[0], quote: "first line\nsecond line" }],
    });
    expect(md).toContain("| Relevance | 88/100 | a \\| b c |");
    expect(section(md, "Quotes").slice(0, 2)).toEqual(["> first line", "> second line"]);
  });
});
