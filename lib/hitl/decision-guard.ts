import { roleAtLeast } from "@/lib/access";
import type { Tx } from "@/lib/db";
import { processSingleton } from "@/lib/process";
import { hitlErrors } from "./errors";
import type { HitlActor } from "./types";

/** What allowed a decision, recorded on its event (`authorization` in event_json and the history). */
export interface DecisionAuthority {
  /** `owner`, `reviewer`, `four_eyes` or `system`. */
  allowedBy: string;
  /** The policy entry that applied (`strict.tool_execution`), or null outside the policy. */
  policyKey: string | null;
  /** The rule of that entry: `owner`, `four_eyes`, or `reviewer` for cases outside it. */
  rule: string;
}

/**
 * Decides who may decide a case, inside the decision's transaction with the case locked, so the
 * answer cannot change between the check and the write. It throws the refusal (a DomainError);
 * it returns what allowed the decision. The separation-of-duties rule (lib/checkpoints) is
 * installed by boot: the HITL core knows cases, not runs, owners or safety levels.
 */
export type DecisionGuard = (
  tx: Tx,
  actor: HitlActor,
  kase: { caseId: string; runRef: string | null },
) => Promise<DecisionAuthority>;

const holder = processSingleton("decision-guard", (): { guard?: DecisionGuard } => ({}));

export function installDecisionGuard(guard: DecisionGuard): void {
  holder.guard = guard;
}

/** Without the installed rule (a process that was not booted), only reviewers and the system decide. */
const reviewersOnly: DecisionGuard = async (_tx, actor) => {
  if (actor.role === "system") return { allowedBy: "system", policyKey: null, rule: "reviewer" };
  if (!roleAtLeast(actor.role, "reviewer")) throw hitlErrors.forbidden("approve");
  return { allowedBy: "reviewer", policyKey: null, rule: "reviewer" };
};

export function decisionGuard(): DecisionGuard {
  return holder.guard ?? reviewersOnly;
}
