import { describe, expect, it } from "vitest";
import { analyzeQueryLexically, createOfflineEngine, keywordsOf, stem } from "@/lib/engine";

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

  it("guesses the language and drops that language's stopwords", () => {
    const german = analyzeQueryLexically("Was ist die Zulassung für ein Medizinprodukt in der EU?");
    expect(german.language).toBe("de");
    expect(german.keywords).toEqual(["Zulassung", "Medizinprodukt", "EU"]);
    expect(analyzeQueryLexically("510(k)").language).toBeUndefined();
  });
});
