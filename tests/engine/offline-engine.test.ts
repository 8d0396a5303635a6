import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KNOWLEDGE_CORPUS } from "@/lib/demo";
import {
  type AnswerResult,
  analyzeQueryLexically,
  composeOfflineAnswer,
  confidenceOf,
  createOfflineEngine,
  filterThinking,
  type Passage,
} from "@/lib/engine";
import { AGENT, numbered, PASSAGES, readAnswer } from "./fixtures";

const engine = createOfflineEngine();

async function ask(question: string, passages: Passage[] = PASSAGES, extra: { history?: never[] } = {}) {
  return readAnswer(engine.answer({ question, agent: AGENT, passages, ...extra }));
}

/** The answer cut at its markers: [sentence, n] pairs, in order. */
function quotedSentences(text: string): { sentence: string; n: number }[] {
  const pieces = text.split(/\s*\[(\d+)\]\s*/);
  const pairs: { sentence: string; n: number }[] = [];
  for (let i = 0; i + 1 < pieces.length; i += 2) pairs.push({ sentence: pieces[i].trim(), n: Number(pieces[i + 1]) });
  expect(pieces[pieces.length - 1].trim()).toBe(""); // nothing after the last citation
  return pairs;
}

function expectFaithful(text: string, result: AnswerResult, passages: Passage[]) {
  const pairs = quotedSentences(text);
  expect(pairs.length).toBeGreaterThanOrEqual(1);
  expect(pairs.length).toBeLessThanOrEqual(5);
  for (const { sentence, n } of pairs) {
    const passage = passages.find((p) => p.n === n);
    expect(passage, `[${n}] names a passage that was given`).toBeDefined();
    expect(sentence.length).toBeGreaterThan(0);
    expect(passage?.text.includes(sentence), `"${sentence}" is quoted verbatim from [${n}]`).toBe(true);
  }
  const numbersInText = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  expect(result.citations).toEqual(numbersInText);
  expect(result.danglingCitations).toEqual([]);
}

describe("offline engine: extractive answers", () => {
  it.each([
    "What does a 510(k) submitter have to show?",
    "When should I use the De Novo pathway for a novel device?",
    "Which devices need premarket approval?",
    "How long does FDA take to decide on a 510(k)?",
  ])("quotes passages verbatim and cites each sentence: %s", async (question) => {
    const { text, result } = await ask(question);
    expectFaithful(text, result, PASSAGES);
    expect(result.text).toBe(text.trim());
    expect(result.engine).toBe("offline");
    expect(result.model).toBe("extractive");
    expect(result.costUsd).toBe(0);
    expect(result.usage).toBeUndefined();
    expect(result.finishReason).toBe("stop");
  });

  it("picks the sentences that answer the question, from the passages that hold them", async () => {
    const { result } = await ask("What is the De Novo pathway for novel devices without a predicate?");
    expect(result.text).toContain(
      "The De Novo pathway is for novel devices of low to moderate risk that have no predicate. [2]",
    );
    expect(result.citations).toContain(2);
  });

  it("keeps abbreviations, acronyms and decimals inside their sentence", async () => {
    const { result } = await ask("Which medium-risk devices need a 510(k) before they are sold in the U.S. market?");
    expect(result.text).toContain(
      "A 510(k) is the premarket submission most medium-risk medical devices need before they can be sold in the U.S. market. [1]",
    );
    const fees = await ask("Do user fees apply to a De Novo request?");
    expect(fees.result.text).toContain("User fees apply (approx. 3.5 times the 510(k) fee). [2]");
  });

  it("never quotes a sentence carrying the source's own reference numbers", async () => {
    const { result } = await ask("What evidence does approval rest on? Dr. Smith 2019 safety effectiveness");
    expect(result.text).not.toContain("Dr. Smith");
    expect(result.text).not.toMatch(/\[4\]/);
    expectFaithful(result.text, result, PASSAGES);
  });

  it("writes its reasoning inside <thinking>, which never reaches the visible answer", async () => {
    const { rawText, text, reasoning, result } = await ask("When should I use the De Novo pathway?");
    expect(rawText.startsWith("<thinking>")).toBe(true);
    expect(reasoning).toContain("Passages considered");
    expect(result.reasoning).toBe(reasoning.trim());
    expect(text).not.toMatch(/thinking|Passages considered/i);
    // The raw stream, split by the same filter a run uses, gives the same answer.
    expect(filterThinking(rawText).text.trim()).toBe(result.text);
  });

  it("does not answer from a passage that shares one incidental word with the question", async () => {
    const guide = numbered([
      {
        title: "Using citations",
        score: 2.2,
        text: "Every answer cites its sources. Click a citation badge to open the passage at that point in the document.",
      },
    ]);
    const { text, result, reasoning } = await ask("What is the boiling point of tungsten?", guide);
    // No name is missing (only plain words): the refusal quotes the question.
    expect(text).toBe("I found nothing in the knowledge base about “What is the boiling point of tungsten”.");
    expect(result.citations).toEqual([]);
    expect(result.confidence).toBe(0);
    expect(reasoning).toContain("in no passage: boil, tungsten");
    expect(reasoning).toContain("An answer needs 67%");
  });

  it("says exactly that it found nothing when retrieval is empty", async () => {
    const { text, result, reasoning } = await ask("What is the orphan drug designation process?", []);
    expect(text).toBe("I found nothing in the knowledge base about “What is the orphan drug designation process”.");
    expect(result.text).toBe(text);
    expect(result.citations).toEqual([]);
    expect(result.confidence).toBe(0);
    expect(reasoning).toContain("no passages");
  });

  it("quotes the question a follow-up asked, not the words it borrowed from history", async () => {
    const history = [
      { role: "user" as const, content: "Tell me about pediatric exclusivity" },
      { role: "assistant" as const, content: "…" },
    ];
    const analysis = analyzeQueryLexically("And how long does it last?", { history });
    const { result } = await readAnswer(
      engine.answer({ question: "And how long does it last?", agent: AGENT, passages: [], history, analysis }),
    );
    expect(analysis.borrowed).toEqual(["pediatric", "exclusivity"]);
    expect(result.text).toBe("I found nothing in the knowledge base about “And how long does it last”.");
  });

  it("is deterministic: the same input gives the same stream and result", async () => {
    const question = "What must a 510(k) submitter show about the predicate device?";
    const first = await ask(question);
    const second = await ask(question);
    expect(second.raw).toEqual(first.raw);
    expect(second.parts).toEqual(first.parts);
    expect(second.result).toEqual(first.result);
    const analysis = analyzeQueryLexically(question);
    const composed = filterThinking(composeOfflineAnswer({ question, agent: AGENT, passages: PASSAGES, analysis }));
    expect(composed.text.trim()).toBe(first.result.text);
    expect(composed.reasoning.trim()).toBe(first.result.reasoning);
  });

  it("streams in small chunks", async () => {
    const { raw, parts } = await ask("When should I use the De Novo pathway?");
    expect(raw.length).toBeGreaterThan(10);
    expect(parts.filter((p) => p.type === "text").length).toBeGreaterThan(3);
    for (const chunk of raw) expect(chunk.trim().split(/\s+/).length).toBeLessThanOrEqual(4);
  });

  it("skips a sentence that repeats one already chosen", async () => {
    // Two passages of one document that overlap (as a re-uploaded section would).
    const copy = numbered([
      { title: "A", score: 8, text: PASSAGES[1].text },
      { title: "A", score: 7, text: PASSAGES[1].text },
    ]).map((p) => ({ ...p, documentId: "doc-1" }));
    const { result, reasoning } = await ask("Which novel devices without a predicate use De Novo?", copy);
    const sentences = quotedSentences(result.text).map((p) => p.sentence);
    expect(new Set(sentences).size).toBe(sentences.length);
    expect(result.citations).toEqual([1]);
    expect(reasoning).toMatch(/Skipped \d+ sentence\(s\) repeating/);
  });

  it("answers small talk without sources", async () => {
    const { result } = await ask("Hello there!");
    expect(result.text).toMatch(/^Hello! I'm FDA Regulatory Specialist/);
    expect(result.citations).toEqual([]);
    expect(result.confidence).toBe(0);
  });

  it("reports confidence from the measured formula, 0 < c ≤ 1 when it cites", async () => {
    const question = "When should I use the De Novo pathway for novel devices?";
    const { result } = await ask(question);
    const terms = analyzeQueryLexically(question).keywords.map((k) => k.toLowerCase());
    expect(terms.length).toBeGreaterThan(0);
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
    const weak = await ask(question, numbered([{ ...PASSAGES[1], score: 0.4 }]));
    expect(weak.result.confidence).toBeLessThan(result.confidence);
    expect(confidenceOf({ passages: [], answer: result.text, questionTerms: ["novel"] }).confidence).toBe(0);
  });

  it("stops when the caller aborts, keeping what was written", async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = await readAnswer(
      engine.answer({ question: "De Novo?", agent: AGENT, passages: PASSAGES, signal: controller.signal }),
    );
    expect(result.finishReason).toBe("aborted");
    expect(result.text).toBe("");
    expect(result.citations).toEqual([]);
  });

  it("refuses passages whose numbers could not be cited unambiguously", () => {
    const twice = [PASSAGES[0], { ...PASSAGES[1], n: 1 }];
    expect(() => engine.answer({ question: "q", agent: AGENT, passages: twice })).toThrow(TypeError);
    expect(() => engine.answer({ question: "q", agent: AGENT, passages: [{ ...PASSAGES[0], n: 0 }] })).toThrow(
      /distinct positive integers/,
    );
  });

  it("settles its result even when nobody reads the streams", async () => {
    const { text, citations } = await engine.answer({
      question: "What is a 510(k)?",
      agent: AGENT,
      passages: PASSAGES,
    }).result;
    expect(text.length).toBeGreaterThan(0);
    expect(citations.length).toBeGreaterThan(0);
  });
});

// --- properties over generated passages ------------------------------------------------------

const SENTENCE_BANK = [
  "The sponsor submits the protocol to the agency before enrolment starts.",
  "Serious adverse events are reported within 15 days of awareness.",
  "Dose escalation follows a 3+3 design in most phase 1 oncology trials.",
  "Approx. 2.5 percent of submissions are refused at intake, e.g. for missing forms.",
  "The U.S. agency publishes a decision summary for every cleared device.",
  "Randomisation balances known and unknown prognostic factors between arms.",
  "Budget impact models estimate the cost of adoption over three to five years.",
  "Signal detection combines disproportionality statistics with case review.",
  "A predicate device must be legally marketed in the United States.",
  "Blinded outcome assessors reduce detection bias in open-label trials.",
];
const QUESTION_WORDS = [
  "sponsor",
  "protocol",
  "serious",
  "adverse",
  "dose",
  "trials",
  "submissions",
  "device",
  "randomisation",
  "budget",
  "signal",
  "predicate",
  "blinded",
  "agency",
  "the",
  "what",
  "how",
  "unrelated",
];

const passageDraft = fc.record({
  title: fc.constantFrom("Doc A", "Doc B", "Doc C"),
  score: fc.double({ min: 0.1, max: 30, noNaN: true }),
  text: fc
    .array(fc.constantFrom(...SENTENCE_BANK), { minLength: 1, maxLength: 5 })
    .chain((sentences) =>
      fc.constantFrom(" ", "\n", "\n\n- ").map((glue) => sentences.join(glue === "\n\n- " ? "\n- " : glue)),
    ),
});

describe("offline engine properties", () => {
  it("every answer sentence is a verbatim quote of the passage its number names; no dangling numbers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(passageDraft, { minLength: 0, maxLength: 6 }),
        fc.array(fc.constantFrom(...QUESTION_WORDS), { minLength: 1, maxLength: 6 }),
        async (drafts, words) => {
          const passages = numbered(drafts);
          const question = `${words.join(" ")}?`;
          const { text, result } = await ask(question, passages);
          if (passages.length === 0) {
            expect(text).toMatch(/^I found nothing in the knowledge base about .+\.$/);
            expect(result.citations).toEqual([]);
            expect(result.confidence).toBe(0);
            return;
          }
          if (/^I found nothing/.test(text)) return; // nothing quotable (only possible with no sentences)
          expectFaithful(text, result, passages);
          expect(result.confidence).toBeGreaterThanOrEqual(0);
          expect(result.confidence).toBeLessThanOrEqual(1);
          const again = await ask(question, passages);
          expect(again.result).toEqual(result);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("offline engine: the answering document", () => {
  // The demo corpus's orphan designation document, one passage per section as ingestion cuts
  // it, and the expedited programs' fast track section, which also speaks of "benefits".
  const sections = (slug: string, title: string) =>
    (KNOWLEDGE_CORPUS.demo.find((d) => d.slug === slug)?.markdown ?? "")
      .split(/\n## /)
      .slice(1)
      .map((body) => {
        const [section, ...rest] = body.split("\n");
        return { title, section, score: 1, text: rest.join("\n").trim() };
      });
  const ORPHAN = numbered([
    ...sections("fda-orphan-designation", "Orphan drug designation"),
    ...sections("fda-expedited-programs", "FDA expedited programs").slice(0, 1),
  ]).map((p, i) => ({ ...p, score: 10 - i, documentId: p.title }));

  it("answers the benefits of orphan designation from the Benefits section, quoting no neighbour", async () => {
    const { result, reasoning } = await ask("What are the benefits of orphan designation?", ORPHAN);
    expect(result.text).toContain("seven years of market exclusivity");
    expect(result.text).not.toContain("accelerated approval");
    expect(result.citations.every((n) => ORPHAN[n - 1].title === "Orphan drug designation")).toBe(true);
    expect(reasoning).toContain("The answering document covers 100% of the question.");
    expectFaithful(result.text, result, ORPHAN);
  });

  it("refuses a question that hinges on something no passage knows, and says which terms", async () => {
    const { text, result, reasoning } = await ask("What does Japan's PMDA require in a new drug application?", [
      {
        ...PASSAGES[0],
        title: "New Drug Application",
        text: "A new drug application collects everything learned in development.",
      },
    ]);
    // The names no passage mentions, as the question wrote them.
    expect(text).toBe("I found nothing in the knowledge base about Japan or PMDA.");
    expect(result.citations).toEqual([]);
    expect(reasoning).toContain("in no passage: japan, pmda");
  });
});
