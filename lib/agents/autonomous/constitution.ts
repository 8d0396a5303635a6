import type { Severity } from "../contract";
import { claimsOf, withoutClaims } from "./claims";
import { type ContentType, checkApplies, type PrincipleCheck, runCheck } from "./principle-checks";
import { riskAtLeast } from "./tools";

/** One of a tenant's principles (lib/db constitutional_principles, or the defaults below). */
export interface Principle {
  id: string;
  description: string;
  severity: Severity;
  /** How it is checked; absent (or builtin) for the four principles below, whose checks are built in. */
  check?: PrincipleCheck | null;
}

/** What every tenant's drafts are held to unless it sets its own principles. */
export const DEFAULT_PRINCIPLES: readonly Principle[] = [
  { id: "cite_sources", description: "Every factual sentence cites a source the answer lists.", severity: "high" },
  {
    id: "no_absolute_claims",
    description: "No guarantees or absolute claims of safety or efficacy.",
    severity: "medium",
  },
  {
    id: "no_individual_prescription",
    description: "No dosing or treatment instructions addressed to an individual.",
    severity: "high",
  },
  {
    id: "disclose_uncertainty",
    description: "An answer on weak evidence says so.",
    severity: "medium",
  },
];

export interface ValidationResult {
  isValid: boolean;
  violations: string[];
  severity: Severity | null;
  requiresRevision: boolean;
  suggestedRevision: string | null;
  principlesChecked: string[];
  principlesPassed: string[];
  principlesFailed: string[];
}

const ABSOLUTE =
  /\b(guarantee[sd]?|always safe|completely safe|100\s?% (?:safe|effective)|no risk|risk-free|never fails|proven cure)\b/gi;
const PRESCRIPTION = /\byou should (?:take|start|stop|increase|decrease)\b|\btake \d+\s?(?:mg|ml|g)\b/i;
/** The principles whose checks are built in, by id. */
export const BUILTIN_PRINCIPLES: ReadonlySet<string> = new Set(DEFAULT_PRINCIPLES.map((p) => p.id));
/** Built-in principles that read citations and confidence, which only an answer has. */
const RESPONSE_ONLY = new Set(["cite_sources", "disclose_uncertainty"]);

/**
 * Whether the validator can check this principle at all (a tenant's principle needs a check of
 * its own); a judged one only with a model to judge it (`modelJudges`) or a mechanical fallback.
 */
export const isCheckable = (p: Pick<Principle, "id" | "check">, modelJudges = false) => {
  if (!p.check) return BUILTIN_PRINCIPLES.has(p.id);
  if (p.check.kind === "builtin") return BUILTIN_PRINCIPLES.has(p.id);
  if (p.check.kind === "judged") return modelJudges || Boolean(p.check.fallback);
  return true;
};

/** The model's verdict on a judged principle, its revision (if any) already in the draft validated. */
export interface JudgedVerdict {
  failure: string | null;
  /** The model could not judge: the principle counts as violated, never as passed. */
  failedClosed: boolean;
}

// A judged principle always applies to what it reads: without a verdict it runs its fallback or
// fails closed, so it is never skipped as if it had passed.
const appliesTo = (p: Principle, content: ContentType) =>
  isCheckable(p, true) &&
  (p.check && p.check.kind !== "builtin"
    ? checkApplies(p.check, content)
    : content === "response" || !RESPONSE_ONLY.has(p.id));
/** Shorter sentences ("In short:") are not claims that need a source. */
const CLAIM_MIN_WORDS = 6;
const CAVEAT = "The evidence behind this answer is limited; treat it as a starting point for expert review.";
const WEAK_EVIDENCE = 0.5;

/**
 * Checks a draft (an answer, a plan or a decision) against the principles and writes the
 * revision they require: uncited factual sentences and individual prescriptions are removed,
 * absolute claims softened, a caveat added when confidence is weak, and each tenant principle's
 * own check applied. Deterministic, so the same draft always gets the same verdict.
 */
export function validateDraft(
  draft: string,
  principles: readonly Principle[],
  context: {
    confidence: number;
    knownCitations: number[];
    content?: ContentType;
    /** The model's verdicts on the judged principles (principle-judgement.ts), by principle id. */
    judged?: ReadonlyMap<string, JudgedVerdict>;
  },
): ValidationResult {
  const content = context.content ?? "response";
  const known = new Set(context.knownCitations);
  const claims = claimsOf(draft);
  const failed = new Map<string, string>();
  const applicable = principles.filter((p) => appliesTo(p, content));
  // Disclaimers the tenant requires are not claims that need a source of their own.
  const exempt = new Set([
    CAVEAT,
    ...applicable.flatMap((p) => {
      const check = p.check?.kind === "judged" ? p.check.fallback : p.check;
      return check?.kind === "required_disclaimer" ? claimsOf(check.text).map((c) => c.text) : [];
    }),
  ]);
  let revised = draft;
  for (const principle of applicable) {
    let check = principle.check;
    if (check?.kind === "judged") {
      const verdict = context.judged?.get(principle.id);
      if (verdict) {
        if (verdict.failure) failed.set(principle.id, verdict.failure);
        continue;
      }
      if (!check.fallback) {
        failed.set(principle.id, "not judged: no model is configured for this run, and it has no fallback check");
        continue;
      }
      // A fallback that reads only answers (a disclaimer, citations, a length) has nothing to say here.
      if (!checkApplies(check.fallback, content)) continue;
      check = check.fallback;
    }
    if (check && check.kind !== "builtin") {
      const outcome = runCheck(check, revised, {
        content,
        knownCitations: known,
        claimMinWords: CLAIM_MIN_WORDS,
        exempt,
      });
      if (outcome.failure) {
        failed.set(principle.id, outcome.failure);
        revised = outcome.revised;
      }
      continue;
    }
    switch (principle.id) {
      case "cite_sources": {
        const uncited = claims.filter(
          (c) =>
            c.kind === "sentence" &&
            c.text.split(/\s+/).length >= CLAIM_MIN_WORDS &&
            !c.citations.some((n) => known.has(n)) &&
            !exempt.has(c.text),
        );
        if (uncited.length > 0) {
          failed.set(principle.id, `${uncited.length} sentence(s) without a source`);
          revised = withoutClaims(revised, uncited);
        }
        break;
      }
      case "no_absolute_claims": {
        const found = draft.match(ABSOLUTE);
        if (found) {
          failed.set(principle.id, `absolute wording: ${[...new Set(found.map((f) => f.toLowerCase()))].join(", ")}`);
          revised = revised.replace(ABSOLUTE, "reported");
        }
        break;
      }
      case "no_individual_prescription": {
        // Judged on the draft; removed from the revision so far (another principle may have taken it already).
        if (claims.some((c) => PRESCRIPTION.test(c.text))) {
          failed.set(principle.id, "instructions addressed to an individual");
          revised = withoutClaims(
            revised,
            claimsOf(revised).filter((c) => PRESCRIPTION.test(c.text)),
          );
        }
        break;
      }
      case "disclose_uncertainty": {
        if (context.confidence < WEAK_EVIDENCE && !draft.includes(CAVEAT)) {
          failed.set(principle.id, `confidence ${context.confidence.toFixed(2)} without a caveat`);
          revised = `${revised.trimEnd()}\n\n${CAVEAT}`;
        }
        break;
      }
    }
  }
  // A tenant's own principle that this validator has no check for is not reported as passed.
  const checked = applicable.map((p) => p.id);
  const failedIds = [...failed.keys()];
  const severity = applicable
    .filter((p) => failed.has(p.id))
    .map((p) => p.severity)
    .reduce<Severity | null>((a, b) => (a === null || riskAtLeast(b, a) ? b : a), null);
  const requiresRevision = severity !== null && riskAtLeast(severity, "medium");
  return {
    isValid: failedIds.length === 0,
    violations: failedIds.map((id) => `${id}: ${failed.get(id)}`),
    severity,
    requiresRevision,
    suggestedRevision: requiresRevision
      ? revised
          .replace(/[ \t]{2,}/g, " ")
          .replace(/\n{3,}/g, "\n\n")
          .trim()
      : null,
    principlesChecked: checked,
    principlesPassed: checked.filter((id) => !failed.has(id)),
    principlesFailed: failedIds,
  };
}

/**
 * Validates several short texts of one plan or decision as one piece of content, and revises
 * each on its own (so a step stays a step): the record is the whole; the revisions apply per text.
 */
export function validateTexts(
  texts: readonly string[],
  principles: readonly Principle[],
  content: Exclude<ContentType, "response">,
  /** The model's verdicts on the judged principles, one map per text (principle-judgement.ts). */
  judged?: readonly ReadonlyMap<string, JudgedVerdict>[],
): { result: ValidationResult; revised: string[] } {
  const context = { confidence: 1, knownCitations: [], content };
  // The whole is judged violated by a principle that any one text violates.
  const whole = new Map<string, JudgedVerdict>();
  for (const verdicts of judged ?? []) {
    for (const [id, verdict] of verdicts) if (!whole.get(id)?.failure) whole.set(id, verdict);
  }
  const result = validateDraft(texts.join("\n"), principles, { ...context, judged: judged ? whole : undefined });
  if (!result.requiresRevision) return { result, revised: [...texts] };
  const revised = texts.map((t, i) => {
    const one = validateDraft(t, principles, { ...context, judged: judged?.[i] });
    return one.requiresRevision && one.suggestedRevision !== null ? one.suggestedRevision : t;
  });
  return { result, revised };
}
