import { describe, expect, it } from "vitest";
import {
  acronymAliases,
  analyzeQueryLexically,
  createOfflineEngine,
  keywordsOf,
  namedTermsOf,
  ownTermsOf,
  spelledOut,
  stem,
} from "@/lib/engine";

describe("lexical query analysis", () => {
  it("keeps the subject words as written and drops stopwords and request phrasing", async () => {
    const analysis = await createOfflineEngine().analyzeQuery(
      "Can you please explain what the FDA's Breakthrough Therapy designation is?",
    );
    expect(analysis).toEqual({
      intent: "question",
      keywords: ["FDA", "Breakthrough", "Therapy", "designation"],
      searchQuery: "FDA Breakthrough Therapy designation",
      language: "en",
      followUp: false,
      source: "lexical",
    });
  });

  it("keeps numbers and hyphenated terms, and each word once by stem", () => {
    expect(keywordsOf("21 CFR 314 post-market reports: reporting reported report")).toEqual([
      "21",
      "CFR",
      "314",
      "post-market",
      "reports",
    ]);
    expect(keywordsOf("When is De Novo used instead of a 510(k)?")).toEqual(["De", "Novo", "used", "510"]);
  });

  it("stems the usual English endings to one form", () => {
    for (const group of [
      ["report", "reports", "reporting", "reported"],
      ["approve", "approved", "approval", "approves"],
      ["label", "labelling", "labelled", "labeling"],
      ["study", "studies"],
      ["process", "processes"],
      ["designation", "designated"],
    ]) {
      expect(new Set(group.map(stem)).size, group.join(", ")).toBe(1);
    }
    expect(stem("analysis")).toBe("analysis");
    expect(stem("status")).toBe("status");
    expect(stem("string")).toBe("string");
  });

  it.each([
    ["Hello!", "greeting"],
    ["hi there", "greeting"],
    ["Good morning, expert", "greeting"],
    ["Thanks a lot!", "thanks"],
    ["thank you so much", "thanks"],
    ["Bye", "farewell"],
    ["Hi, what is a 510(k)?", "question"],
    ["Thanks! And what about De Novo?", "question"],
  ])("%j is %s", (message, intent) => {
    expect(analyzeQueryLexically(message).intent).toBe(intent);
  });

  it("adds the previous question's subject to a follow-up", () => {
    const history = [
      { role: "user" as const, content: "What is pediatric exclusivity?" },
      { role: "assistant" as const, content: "Pediatric exclusivity adds six months [1]." },
    ];
    const followUp = analyzeQueryLexically("How long does it last?", { history });
    expect(followUp.followUp).toBe(true);
    // "How long" frames the question: "last" is its own subject word.
    expect(followUp.keywords).toEqual(["last", "pediatric", "exclusivity"]);
    expect(followUp.searchQuery).toBe("last pediatric exclusivity");

    const standalone = analyzeQueryLexically("What are the orphan drug designation criteria?", { history });
    expect(standalone.followUp).toBe(false);
    expect(standalone.keywords).toEqual(["orphan", "drug", "designation", "criteria"]);
  });

  it("judges a follow-up's answer on its own words; a pronoun with its own subject borrows nothing", () => {
    const history = [
      { role: "user" as const, content: "We have a novel low-to-moderate risk device with no predicate. What now?" },
      { role: "assistant" as const, content: "The De Novo pathway [1]." },
    ];
    // "they" refers within the question: the previous question's words stay out of the query.
    const own = analyzeQueryLexically(
      "Which expedited programs apply to an oncology drug for an unmet need, and how do they differ?",
      { history },
    );
    expect(own.followUp).toBe(false);
    expect(own.searchQuery).not.toMatch(/device|predicate|novel/);

    const thin = analyzeQueryLexically("What does the Australian TGA require for them?", { history });
    expect(thin.followUp).toBe(true);
    expect(thin.borrowed).toEqual(["novel", "low-to-moderate", "risk", "device", "predicate"]);
    expect(ownTermsOf(thin)).toEqual(["australian", "tga", "requir"]);
  });

  it("keeps an acronym that spells a function word, and tells names from plain words", () => {
    expect(keywordsOf("And what does the US use?")).toEqual(["US", "use"]);
    expect(keywordsOf("AND WHAT DOES THE US USE?")).toEqual(["USE"]);
    expect([...namedTermsOf("How long does Health Canada take to review a submission in 2024?")]).toEqual([
      "health",
      "canada",
      "2024",
    ]);
    // German capitalises every noun: only acronyms and numbers are names there.
    expect([...namedTermsOf("Wie viele Punkte gab die NFL 2015 ab?", "de")]).toEqual(["nfl", "2015"]);
  });

  it("guesses the language and drops that language's stopwords", () => {
    const german = analyzeQueryLexically("Was ist die Zulassung für ein Medizinprodukt in der EU?");
    expect(german.language).toBe("de");
    expect(german.keywords).toEqual(["Zulassung", "Medizinprodukt", "EU"]);
    expect(analyzeQueryLexically("510(k)").language).toBeUndefined();
  });
});

describe("acronyms the passages spell out", () => {
  const passage = (text: string) => ({
    n: 1,
    chunkId: "c1",
    documentId: "d1",
    title: "Premarket checklist",
    section: null,
    page: null,
    text,
    score: 3,
  });

  it("finds the run of words whose initials spell the acronym, a function word inside it allowed", () => {
    expect(spelledOut("sbom", "Every release ships with a software bill of materials listing components.")).toBe(
      "software bill of materials",
    );
    expect(spelledOut("qms", "The quality management system covers design.")).toBe("quality management system");
    // A run never starts or ends on a function word.
    expect(spelledOut("tga", "Ask the global assessment team.")).toBeNull();
  });

  it("maps only acronyms the passages never write to their expansion's stems", () => {
    const aliases = acronymAliases(
      ["SBOM", "FDA", "list"],
      [passage("The FDA expects a software bill of materials for each release.")],
    );
    expect([...aliases]).toEqual([["sbom", ["softwar", "bill", "material"]]]);
  });
});
