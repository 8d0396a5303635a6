import type { research } from "@/lib/agents/contract";

// Two finished reports as `state.final_report` carries them: one German, one English. The German
// one is full of what a wrong text encoding breaks (ä ö ü ß, „…“, €), and one claim is not verified.

export const GERMAN_REPORT: research.FinalReport = {
  query: "Welche Grenzwerte gelten nach der Strahlenschutzverordnung für Beschäftigte?",
  language: "de",
  answer:
    "Für beruflich exponierte Personen gilt ein Grenzwert der effektiven Dosis von **20 Millisievert** im Kalenderjahr [1]. " +
    "Für die Organdosis der Augenlinse gilt ebenfalls ein Jahresgrenzwert von 20 Millisievert [2].\n\n" +
    "Die Überwachung kostet je Messstelle rund 45 € im Monat [3].",
  findings: {
    primary: ["Effektive Dosis: höchstens 20 mSv je Kalenderjahr (§ 78 Abs. 1)."],
    secondary: ["Augenlinse: 20 mSv je Kalenderjahr, gemäß § 78 Abs. 2."],
    tertiary: ["Messkosten je Stelle: 45 € im Monat."],
  },
  claims: [
    {
      text: "Der Grenzwert der effektiven Dosis beträgt 20 Millisievert im Kalenderjahr.",
      sources: [1],
      quote:
        "Der Grenzwert der effektiven Dosis beträgt für beruflich exponierte Personen 20 Millisievert im Kalenderjahr.",
      verified: true,
      problems: [],
    },
    {
      text: "Die Überwachung kostet je Messstelle rund 45 € im Monat.",
      sources: [3],
      quote: null,
      verified: false,
      problems: ["„45“ steht nicht in Quelle [3]."],
    },
  ],
  quotes: [
    {
      quote:
        "Der Grenzwert der effektiven Dosis beträgt für beruflich exponierte Personen 20 Millisievert im Kalenderjahr.",
      source: "Strahlenschutzverordnung.docx",
      page: 12,
      relevance_reason: "Nennt den Grenzwert wörtlich.",
      chunk_id: "00000000-0000-4000-8000-000000000001",
      document_id: "00000000-0000-4000-8000-0000000000d1",
    },
  ],
  sources: [
    {
      n: 1,
      document: "Strahlenschutzverordnung.docx",
      document_id: "00000000-0000-4000-8000-0000000000d1",
      chunk_id: "00000000-0000-4000-8000-000000000001",
      page: 12,
      section: "§ 78 Grenzwerte für beruflich exponierte Personen",
      excerpt:
        "Der Grenzwert der effektiven Dosis beträgt für beruflich exponierte Personen 20 Millisievert im Kalenderjahr.",
      tier: 1,
    },
    {
      n: 2,
      document: "Strahlenschutzverordnung.docx",
      document_id: "00000000-0000-4000-8000-0000000000d1",
      chunk_id: "00000000-0000-4000-8000-000000000002",
      page: 13,
      section: null,
      excerpt: "Der Grenzwert der Organ-Äquivalentdosis für die Augenlinse beträgt 20 Millisievert im Kalenderjahr.",
      tier: 2,
    },
    {
      n: 3,
      document: "Kostenübersicht Überwachung.docx",
      document_id: "00000000-0000-4000-8000-0000000000d2",
      chunk_id: "00000000-0000-4000-8000-000000000003",
      page: null,
      section: "Gebühren",
      excerpt: "Die Gebühren der Messstellen richten sich nach der Gebührenordnung.",
      tier: 3,
    },
  ],
  quality: {
    total: 287,
    dimensions: {
      relevance: { score: 91, basis: "10 von 11 Begriffen der Frage im Bericht" },
      coverage: { score: 67, basis: "2 von 3 Aufgaben mit Belegen" },
      groundedness: { score: 50, basis: "1 von 2 Aussagen geprüft" },
      language: { score: 79, basis: "Sprache erkannt: Deutsch (Anteil 0,79)" },
    },
  },
  termination_reason: "user_end",
  drift_warning: "35 % des Kontexts lagen unter der Relevanzschwelle und wurden verworfen.",
  engine: "offline",
  created_at: "2026-11-28T10:15:00.000Z",
};

export const ENGLISH_REPORT: research.FinalReport = {
  query: "How long must incident records be retained?",
  language: "en",
  answer:
    "## Retention\n\nIncident records are kept for **seven years** after closure [1]. " +
    "Records with a pending claim are kept until the claim is settled [2].\n\n- Backups follow the same rule [1].",
  findings: {
    primary: ["Incident records: seven years after closure (section 4.2)."],
    secondary: ["Pending claims extend retention until settlement."],
    tertiary: [],
  },
  claims: [
    {
      text: "Incident records are kept for seven years after closure.",
      sources: [1],
      quote: "Incident records shall be retained for seven years after the incident is closed.",
      verified: true,
      problems: [],
    },
  ],
  quotes: [
    {
      quote: "Incident records shall be retained for seven years after the incident is closed.",
      source: "Records Policy.docx",
      page: 4,
      relevance_reason: "States the retention period.",
      chunk_id: "00000000-0000-4000-8000-000000000011",
      document_id: "00000000-0000-4000-8000-0000000000e1",
    },
  ],
  sources: [
    {
      n: 2,
      document: "Claims Handbook.docx",
      document_id: "00000000-0000-4000-8000-0000000000e2",
      chunk_id: "00000000-0000-4000-8000-000000000012",
      page: 9,
      section: "Annex II",
      excerpt: "Where a claim is pending, records are retained until it is settled.",
      tier: 2,
    },
    {
      n: 1,
      document: "Records Policy.docx",
      document_id: "00000000-0000-4000-8000-0000000000e1",
      chunk_id: "00000000-0000-4000-8000-000000000011",
      page: 4,
      section: "4.2 Retention",
      excerpt: "Incident records shall be retained for seven years after the incident is closed.",
      tier: 1,
    },
  ],
  quality: {
    total: 352,
    dimensions: {
      relevance: { score: 88, basis: "7 of 8 query terms in the report" },
      coverage: { score: 100, basis: "2 of 2 tasks with evidence" },
      groundedness: { score: 100, basis: "1 of 1 claims verified" },
      language: { score: 64, basis: "language detected: English (share 0.64)" },
    },
  },
  termination_reason: "convergence",
  drift_warning: null,
  engine: "scripted-model",
  created_at: "2026-11-28T10:15:00.000Z",
};
