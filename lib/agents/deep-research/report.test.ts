import { describe, expect, it } from "vitest";
import type { TieredContextEntry } from "./contract";
import { extractInfo } from "./evidence";
import { assessQuality, SENTENCES_SHOWN, sentencesOf, synthesizeOffline, verifyClaim } from "./report";

const CHUNK = "FDA's performance goal is a decision within 90 FDA days. The clock stops during requests.";
const entry: TieredContextEntry = {
  chunk: CHUNK,
  document: "FDA 510(k) premarket notification",
  page: 3,
  extracted_info: CHUNK,
  relevance_score: 0.8,
  context_tier: 1,
  context_weight: 1,
  depth: 0,
  source_type: "vector_search",
  chunk_id: "c1",
  document_id: "d1",
  section: null,
  task_id: 1,
};
const task = { id: 1, task: "Find the review timeline", context: "", completed: true, subtasks: [] };

describe("the offline report", () => {
  it("cites each finding, frames it in the question's language and verifies it", () => {
    const draft = synthesizeOffline({
      query: "Wie lange dauert die Prüfung?",
      language: "de",
      tasks: [task, { ...task, id: 2, task: "Kosten" }],
      tiers: [entry],
      summaries: [],
      quotes: [{ quote: "a decision within 90 FDA days", chunk_id: "c1", source: entry.document, page: 3 }],
      clarification: "",
    });
    expect(draft.answer).toContain("FDA's performance goal is a decision within 90 FDA days. [1]");
    expect(draft.answer).toContain("Wörtliche Zitate");
    expect(draft.sources[0]).toMatchObject({ n: 1, chunk_id: "c1", page: 3 });
    const ok = verifyClaim(draft.claims[0], new Map([[1, CHUNK]]));
    expect(ok.verified).toBe(true);
    const bad = verifyClaim({ ...draft.claims[0], text: "FDA decides within 60 days per EMA." }, new Map([[1, CHUNK]]));
    expect(bad.verified).toBe(false);
    expect(bad.problems.join(" ")).toMatch(/60.*EMA|EMA.*60/s);
    const quality = assessQuality({
      answer: draft.answer,
      anchorTerms: ["FDA", "Prüfung"],
      tasks: [task, { ...task, id: 2 }],
      claimsByTask: [1, 0],
      claims: [ok],
      framing: draft.framing,
      language: "de",
    });
    expect(quality.dimensions.coverage.score).toBe(50);
    expect(quality.dimensions.groundedness.score).toBe(100);
    expect(quality.dimensions.language.score).toBe(100);
    expect(quality.total).toBe(Object.values(quality.dimensions).reduce((s, d) => s + d.score, 0));
  });

  it("shows a primary passage's whole finding and the best two sentences of the others", () => {
    const finding =
      "Manning is the oldest quarterback to play in a Super Bowl, at 39. The past record was held by John Elway. Elway led the Broncos at 38.";
    const primary = { ...entry, chunk: finding, extracted_info: finding };
    const secondary = { ...primary, chunk_id: "c2", document_id: "d2", context_tier: 2 as const, context_weight: 0.6 };
    const draft = synthesizeOffline({
      query: "Who was the oldest quarterback before Manning?",
      language: "en",
      tasks: [task],
      tiers: [primary, secondary],
      summaries: [],
      quotes: [],
      clarification: "",
    });
    expect(draft.claims.map((c) => [c.text, c.sources])).toEqual([
      ["Manning is the oldest quarterback to play in a Super Bowl, at 39.", [1]],
      ["The past record was held by John Elway.", [1]],
      ["Elway led the Broncos at 38.", [1]],
      ["Manning is the oldest quarterback to play in a Super Bowl, at 39.", [2]],
      ["The past record was held by John Elway.", [2]],
    ]);
    expect(draft.answer).toContain("- The past record was held by John Elway. [1]");
  });

  it("takes a finding's sentences as its chunk cut them, so each claim quotes the chunk", () => {
    // The chunk's splitter ends a sentence without a full stop before a numbered line; joined
    // into the finding and split again, it would run into the next sentence and quote neither.
    const chunk =
      "In 1901 welding was shown by burning acetylene with compressed O\n2. Cutting metal this way became common in 1910.";
    const finding = extractInfo(chunk, ["welding", "acetylene", "metal"]);
    const draft = synthesizeOffline({
      query: "When was welding shown?",
      language: "en",
      tasks: [task],
      tiers: [{ ...entry, chunk, extracted_info: finding }],
      summaries: [],
      quotes: [],
      clarification: "",
    });
    expect(draft.claims.length).toBe(2);
    for (const c of draft.claims) {
      expect(chunk).toContain(c.text);
      expect(verifyClaim(c, new Map([[1, chunk]])).verified).toBe(true);
    }
  });

  it("shows the sentence a finding's best one points back to besides the tier's count", () => {
    const chunk =
      "The Scottish Parliament cannot legislate on matters reserved to Westminster. " +
      "These include abortion, broadcasting policy and drugs policy. " +
      "The list of abortion matters was set in 1998. Drugs policy is debated often in the chamber.";
    const info = extractInfo(chunk, ["abortion", "drugs", "policy"]);
    const shown = sentencesOf(info, SENTENCES_SHOWN[2], chunk);
    expect(shown[0]).toContain("Westminster");
    expect(shown[1]).toContain("These include abortion");
    expect(shown).toHaveLength(SENTENCES_SHOWN[2] + 1);
    // A finding that does not open with an antecedent shows the tier's count only.
    const plain = "Abortion and drugs policy are reserved. Drugs policy is debated often. Abortion is too.";
    expect(sentencesOf(plain, 2, plain)).toHaveLength(2);
  });
});
