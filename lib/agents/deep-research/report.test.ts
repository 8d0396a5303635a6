import { describe, expect, it } from "vitest";
import type { TieredContextEntry } from "./contract";
import { extractInfo } from "./evidence";
import { assessQuality, sentencesOf, synthesizeOffline, verifyClaim } from "./report";

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
      clarification: "",
    });
    expect(draft.answer).toContain("FDA's performance goal is a decision within 90 FDA days. [1]");
    expect(draft.answer).toContain("## Antwort");
    // The task that found something has its heading; the one that found nothing is named once,
    // after it, under the line that says so, and has no heading of its own.
    expect(draft.answer).toContain("### Find the review timeline");
    expect(draft.answer).not.toContain("### Kosten");
    const nothing = draft.answer.indexOf("Die Dokumente der Wissensbasis enthalten nichts zu diesen Aufgaben:");
    expect(nothing).toBeGreaterThan(draft.answer.indexOf("[1]"));
    expect(draft.answer.slice(nothing)).toMatch(/^[^\n]+\n\n- Kosten$/m);
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

  it("shows the leading task's best-ranked passage whole, its second's finding and one sentence of the others", () => {
    // The answer ("asphyxiated") stands in a sentence that shares no word with the question, so
    // no finding holds it: only the passage shown whole does.
    const lead =
      "The plugs-out test began on January 27, 1967. The test crew boarded at one in the afternoon. " +
      "Then the crew noticed a strange odor in their suits. Communications problems forced a hold in the test. " +
      "An electrical fire began in the cabin. The astronauts were asphyxiated before the hatch could be opened.";
    const second = "The crew trained for the test at North American. Training took a year at the plant.";
    const third = "The test crew wore new suits. Suits were made in Delaware. Nobody wore them twice.";
    const other = "A later test crew flew in October 1968. Its test went well. The crew returned.";
    const at = (chunk: string, chunk_id: string, task_id: number, search_rank?: number): TieredContextEntry => ({
      ...entry,
      chunk,
      extracted_info: extractInfo(chunk, ["plugs-out", "test", "crew"]),
      chunk_id,
      document_id: chunk_id,
      task_id,
      ...(search_rank === undefined ? {} : { search_rank }),
    });
    const draft = synthesizeOffline({
      query: "What happened to the crew during the plugs-out test?",
      language: "en",
      tasks: [task, { ...task, id: 2, task: "Collect what the documents state about the crew" }],
      // The second passage is listed first and weighs more: search order decides, not the list.
      tiers: [
        { ...at(second, "c2", 1, 1), relevance_score: 0.9 },
        at(lead, "c1", 1, 0),
        at(third, "c4", 1, 2),
        at(other, "c3", 2, 0),
      ],
      summaries: [],
      clarification: "",
    });
    expect(at(lead, "c1", 1).extracted_info).not.toContain("asphyxiated");
    const shown = (chunk_id: string) =>
      draft.claims
        .filter((c) => c.sources[0] === draft.sources.find((s) => s.chunk_id === chunk_id)?.n)
        .map((c) => c.text);
    expect(shown("c1")).toEqual([
      "The plugs-out test began on January 27, 1967.",
      "The test crew boarded at one in the afternoon.",
      "Then the crew noticed a strange odor in their suits.",
      "Communications problems forced a hold in the test.",
      "An electrical fire began in the cabin.",
      "The astronauts were asphyxiated before the hatch could be opened.",
    ]);
    expect(shown("c2")).toEqual([
      "The crew trained for the test at North American.",
      "Training took a year at the plant.",
    ]);
    expect(shown("c4")).toEqual(["The test crew wore new suits."]);
    expect(shown("c3")).toEqual(["A later test crew flew in October 1968."]);
    expect(draft.answer.indexOf("asphyxiated")).toBeLessThan(draft.answer.indexOf("North American"));
    expect(draft.answer.indexOf("North American")).toBeLessThan(draft.answer.indexOf("new suits"));
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
      // The lead passage, shown whole: its sentences as the chunk's splitter cut them.
      tiers: [{ ...entry, chunk, extracted_info: finding, search_rank: 0 }],
      summaries: [],
      clarification: "",
    });
    expect(draft.claims.length).toBe(2);
    for (const c of draft.claims) {
      expect(chunk).toContain(c.text);
      expect(verifyClaim(c, new Map([[1, chunk]])).verified).toBe(true);
    }
    // A finding's sentences, as a passage that does not lead shows them, are the chunk's too.
    const shown = sentencesOf(finding, 2, chunk);
    expect(shown).toHaveLength(2);
    for (const sentence of shown) expect(chunk).toContain(sentence);
  });

  it("shows the sentence a finding's best one points back to besides the count asked for", () => {
    const chunk =
      "The Scottish Parliament cannot legislate on matters reserved to Westminster. " +
      "These include abortion, broadcasting policy and drugs policy. " +
      "The list of abortion matters was set in 1998. Drugs policy is debated often in the chamber.";
    const info = extractInfo(chunk, ["abortion", "drugs", "policy"]);
    const shown = sentencesOf(info, 2, chunk);
    expect(shown[0]).toContain("Westminster");
    expect(shown[1]).toContain("These include abortion");
    expect(shown).toHaveLength(2 + 1);
    // A finding that does not open with an antecedent shows the count asked for only.
    const plain = "Abortion and drugs policy are reserved. Drugs policy is debated often. Abortion is too.";
    expect(sentencesOf(plain, 2, plain)).toHaveLength(2);
  });
});
