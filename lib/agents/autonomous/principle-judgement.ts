import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { z } from "zod";
import type { Engine } from "@/lib/engine";
import type { JudgedVerdict, Principle } from "./constitution";
import { askModel } from "./model-call";
import { type ContentType, checkApplies } from "./principle-checks";

// The design's constitutional check by a model, for principles no mechanical check expresses
// ("do not advise a patient directly"): the model reads the draft against the principle's
// criterion and answers whether it is violated, why, and the draft revised. The mechanical checks
// then run on that revision (constitution.ts), so a revision cannot bring in an uncited claim. A
// call that fails fails closed: the principle counts as violated, with a note a reviewer sees.

const Verdict = z.object({
  violated: z.boolean(),
  reason: z.string().max(1000),
  /** The whole text revised to meet the principle; null when it is not violated or cannot be mended. */
  revision: z.string().max(50_000).nullable(),
});

export interface Judgement {
  /** The draft with every revision the model made. */
  text: string;
  verdicts: Map<string, JudgedVerdict>;
  /** What a reviewer must know: the principles the model could not judge. */
  notes: string[];
  /** The verdicts as the constitutional_check trace records them. */
  trace: { principle: string; violated: boolean; failedClosed: boolean; reason: string; revised: boolean }[];
}

/** The judged principles that read this content, judged by the model in turn (none without a model). */
export async function judgeDraft(
  config: LangGraphRunnableConfig,
  engine: Engine | null,
  draft: string,
  principles: readonly Principle[],
  content: ContentType = "response",
): Promise<Judgement> {
  const judgement: Judgement = { text: draft, verdicts: new Map(), notes: [], trace: [] };
  if (!engine?.generateObject) return judgement;
  for (const principle of principles) {
    const check = principle.check;
    if (check?.kind !== "judged" || !checkApplies(check, content)) continue;
    const answer = await askModel(
      config,
      engine,
      "principle_judgement",
      {
        system:
          "Run step: judge. Check the text against the principle only. Say whether the text violates it and why in one sentence. When it does, give the whole text revised so that it no longer does: change only what the principle requires, and keep every other sentence and its citation marks such as [2] as they are. When it does not, the revision is null.",
        prompt: `Principle: ${check.criterion}\n\nText:\n${judgement.text}`,
        schema: Verdict,
      },
      { onFailure: "failed_closed", extra: { principle: principle.id } },
    );
    if (!answer.ok) {
      const failure = `could not be judged (${answer.reason}); counted as violated`;
      judgement.verdicts.set(principle.id, { failure, failedClosed: true });
      judgement.notes.push(
        `the principle "${principle.id}" could not be judged by the model (${answer.reason}); check the answer against it yourself: ${check.criterion}`,
      );
      judgement.trace.push({
        principle: principle.id,
        violated: true,
        failedClosed: true,
        reason: answer.reason,
        revised: false,
      });
      continue;
    }
    const { violated, reason, revision } = answer.output;
    const revised = violated && Boolean(revision?.trim()) && revision?.trim() !== judgement.text.trim();
    if (revised) judgement.text = (revision as string).trim();
    judgement.verdicts.set(principle.id, {
      failure: violated ? `judged violated: ${reason.slice(0, 300) || "no reason given"}` : null,
      failedClosed: false,
    });
    judgement.trace.push({
      principle: principle.id,
      violated,
      failedClosed: false,
      reason: reason.slice(0, 300),
      revised,
    });
  }
  return judgement;
}
