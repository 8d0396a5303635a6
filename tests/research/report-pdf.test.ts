import { getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { reportPdf } from "@/lib/agents";
import { ENGLISH_REPORT, GERMAN_REPORT } from "./fixtures";

/** The PDF's text as a reader's viewer extracts it, pages joined, whitespace runs as one space. */
async function textOf(pdf: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(pdf), { verbosity: 0 });
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  return pages.join(" ").replace(/\s+/g, " ");
}

describe("reportPdf", () => {
  it("writes a real PDF whose extracted text keeps German characters (ä ö ü ß „ “ €)", async () => {
    const pdf = await reportPdf(GERMAN_REPORT);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = await textOf(pdf);
    // Words and marks a wrong encoding turns into "Ã¤" or drops: each must come back as written.
    for (const expected of [
      "Recherchebericht: Welche Grenzwerte gelten nach der Strahlenschutzverordnung für Beschäftigte?",
      "Kostenübersicht Überwachung.docx",
      "rund 45 € im Monat [3]",
      "Augenlinse: 20 mSv je Kalenderjahr, gemäß § 78 Abs. 2.",
      "„Der Grenzwert der effektiven Dosis beträgt für beruflich exponierte Personen 20 Millisievert im Kalenderjahr.“",
      "— Strahlenschutzverordnung.docx, Seite 12",
      "Warnung: Themenabweichung: 35 % des Kontexts",
      "„45“ steht nicht in Quelle [3].",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/Ã|â€/);
  });

  it("holds the German report's sections in order, with the quality total and the claims' marks", async () => {
    const text = await textOf(await reportPdf(GERMAN_REPORT));
    const order = [
      "Antwort",
      "Ergebnisse",
      "Primär",
      "Zitate",
      "Quellen",
      "Qualität",
      "Gesamt: 287/400",
      "Aussagen und ihre Prüfung",
    ];
    const positions = order.map((h) => text.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain("Relevanz: 91/100");
    expect(text).toContain("Belegtheit: 50/100");
    expect(text).toContain(
      "[1] Strahlenschutzverordnung.docx, Abschnitt § 78 Grenzwerte für beruflich exponierte Personen, Seite 12 (Primär)",
    );
    expect(text).toContain("geprüft: Der Grenzwert der effektiven Dosis beträgt 20 Millisievert im Kalenderjahr. [1]");
    expect(text).toContain("nicht geprüft: Die Überwachung kostet je Messstelle rund 45 € im Monat. [3]");
    // Markdown's marks are rendered away, not printed.
    expect(text).toContain("Grenzwert der effektiven Dosis von 20 Millisievert im Kalenderjahr [1]");
    expect(text).not.toContain("**");
  });

  it("writes an English report in English, and replaces what its fonts cannot show by a plain form", async () => {
    const text = await textOf(
      await reportPdf({
        ...ENGLISH_REPORT,
        findings: { ...ENGLISH_REPORT.findings, tertiary: ["Coverage ≥ 0.8 → done"] },
      }),
    );
    expect(text).toContain("Research report: How long must incident records be retained?");
    expect(text).toContain("Retention");
    expect(text).not.toContain("## Retention");
    expect(text).toContain("“Incident records shall be retained for seven years after the incident is closed.”");
    expect(text).toContain("— Records Policy.docx, page 4");
    expect(text).toContain("[1] Records Policy.docx, section 4.2 Retention, page 4 (Primary)");
    expect(text).toContain("Total: 352/400");
    expect(text).toContain("Coverage >= 0.8 -> done");
    expect(text).not.toMatch(/Antwort|Seite/);
  });
});
