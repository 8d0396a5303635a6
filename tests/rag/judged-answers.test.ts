import { beforeAll, describe, expect, it } from "vitest";
import { KNOWLEDGE_CORPUS, SEED_TENANTS } from "@/lib/demo";
import { principal } from "../chat/support";
import { appTargets } from "../support/databases";
import {
  askJudged,
  CONFIDENT,
  figuresTable,
  JUDGED_QUESTIONS,
  type JudgedOutcome,
  measure,
  misses,
} from "../support/judged";
import { seededDatabase } from "../support/seeded";

// The goals the offline engine is held to on the judged question set (docs/answer-quality.md).
const PRECISION_GOAL = 0.9;
/** The first cited passage comes from a document that answers the question. */
const FIRST_CITATION_GOAL = 0.9;
/** Cited sentences (each citation marker in the text) that come from an answering document. */
const SENTENCE_PRECISION_GOAL = 0.95;
const REFUSAL_GOAL = 0.9;
const CALIBRATION_GOAL = 0.9;
/** Calibration over a handful of answers would mean nothing: at least half the set must reach it. */
const MIN_CONFIDENT_SHARE = 0.5;
/** Refusing is not a way to be precise: at most this share of answerable questions may be refused. */
const ANSWERABLE_REFUSED_MAX = 0.05;

describe("the judged question set", () => {
  it("has enough questions, 15% of them unanswerable, each naming documents of its tenant's corpus", () => {
    expect(JUDGED_QUESTIONS.length).toBeGreaterThanOrEqual(80);
    const unanswerable = JUDGED_QUESTIONS.filter((q) => q.answers.length === 0).length;
    expect(unanswerable / JUDGED_QUESTIONS.length).toBeGreaterThanOrEqual(0.15);
    for (const q of JUDGED_QUESTIONS) {
      const slugs = new Set(KNOWLEDGE_CORPUS[q.tenant ?? "demo"].map((d) => d.slug));
      for (const slug of q.answers) expect(slugs, q.question).toContain(slug);
    }
    expect(new Set(JUDGED_QUESTIONS.map((q) => q.question)).size).toBe(JUDGED_QUESTIONS.length);
  });

  it("covers every Ask Expert agent of the demo tenants, with multi-part questions and follow-ups", () => {
    const askExpert = SEED_TENANTS.flatMap((t) =>
      t.agents.filter((a) => !a.workflow).map((a) => `${t.slug}/${a.slug}`),
    );
    const asked = new Set(JUDGED_QUESTIONS.map((q) => `${q.tenant ?? "demo"}/${q.agent}`));
    for (const agent of askExpert) expect(asked, agent).toContain(agent);
    expect(JUDGED_QUESTIONS.filter((q) => (q.parts ?? 1) > 1).length).toBeGreaterThanOrEqual(10);
    expect(JUDGED_QUESTIONS.filter((q) => q.after).length).toBeGreaterThanOrEqual(10);
  });
});

for (const target of appTargets()) {
  describe(`answers to judged questions on ${target.name}`, () => {
    const suite = seededDatabase(target);
    const outcomes: JudgedOutcome[] = [];

    beforeAll(async () => {
      const auth = {
        demo: (await principal(suite.tenants.demo)).auth,
        acme: (await principal(suite.tenants.acme)).auth,
      };
      for (const q of JUDGED_QUESTIONS) outcomes.push(await askJudged(auth[q.tenant ?? "demo"], q));
      const figures = measure(outcomes);
      console.log(`${figuresTable(target.name, figures)}\n${misses(outcomes).join("\n")}`);
      // 164 chat turns: about three minutes on a quiet machine, far more when it is shared.
    }, 1_200_000);

    it(`cites answering documents (precision ≥ ${PRECISION_GOAL}) and refuses at most ${ANSWERABLE_REFUSED_MAX} of answerable questions`, () => {
      const f = measure(outcomes);
      expect(f.precision).toBeGreaterThanOrEqual(PRECISION_GOAL);
      expect(f.refusedAnswerableRate).toBeLessThanOrEqual(ANSWERABLE_REFUSED_MAX);
    });

    it(`cites an answering document first (≥ ${FIRST_CITATION_GOAL}) and in its sentences (≥ ${SENTENCE_PRECISION_GOAL})`, () => {
      const f = measure(outcomes);
      expect(f.firstRightRate).toBeGreaterThanOrEqual(FIRST_CITATION_GOAL);
      expect(f.sentencePrecision).toBeGreaterThanOrEqual(SENTENCE_PRECISION_GOAL);
    });

    it(`says it found nothing when nothing answers (refusals ≥ ${REFUSAL_GOAL})`, () => {
      const f = measure(outcomes);
      expect(f.refusalRate).toBeGreaterThanOrEqual(REFUSAL_GOAL);
      // A plain sentence: the names nothing mentions ("Japan or PMDA"), or the question quoted.
      for (const o of outcomes.filter((x) => x.refused))
        expect(o.text).toMatch(
          /^I found nothing in the knowledge base about (?:“[^“”]+”|[^\s“”,]+(?:(?:, | or )[^\s“”,]+)*)\.$/u,
        );
    });

    it(`is right at least ${CALIBRATION_GOAL} of the time when its confidence is ≥ ${CONFIDENT}`, () => {
      const f = measure(outcomes);
      expect(f.confident).toBeGreaterThanOrEqual(MIN_CONFIDENT_SHARE * f.answerable);
      expect(f.calibration).toBeGreaterThanOrEqual(CALIBRATION_GOAL);
    });

    it("answers the issue's examples from the right documents", () => {
      const of = (question: string) => outcomes.find((o) => o.question === question) as JudgedOutcome;
      const orphan = of("What are the benefits of orphan designation?");
      expect(orphan.cited.length).toBeGreaterThan(0);
      expect(orphan.cited.every((slug) => slug === "fda-orphan-designation")).toBe(true);
      expect(orphan.text).toContain("market exclusivity");
      expect(orphan.text).not.toMatch(/accelerated approval/i);
      // A domain question to the pharmacovigilance expert never quotes the product's own guide.
      const pbrer = of("What goes into a PBRER?");
      expect(pbrer.cited).toContain("psur-pbrer");
      for (const o of outcomes.filter((x) => !x.answers.some((slug) => slug.startsWith("guide-"))))
        expect(
          o.cited.filter((slug) => slug.startsWith("guide-")),
          o.question,
        ).toEqual([]);
    });
  });
}
