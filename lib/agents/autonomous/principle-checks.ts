import { RE2JS } from "re2js";
import { z } from "zod";
import { type Claim, claimsOf, withoutClaims } from "./claims";

// What a principle is checked by. A tenant's principle is only enforced when the validator can
// run its check, so every enabled principle names one: the four built-in principles carry their
// own ("builtin"); the rest use the kinds below. Patterns run on RE2 (linear time), as the
// review forms' patterns do, so a tenant's pattern cannot stall a run.

/** What the validator reads: a run's plan, its critical decision, or its answer (the design's content_type). */
export type ContentType = "plan" | "decision" | "response";

const phrase = z.string().trim().min(1).max(200);

const ForbiddenPhrases = z
  .object({
    kind: z.literal("forbidden_phrases"),
    phrases: z.array(phrase).min(1, "Name at least one phrase.").max(50),
    /** What stands in for a forbidden phrase; without one, the sentence that holds it is removed. */
    replacement: z.string().trim().max(200).optional(),
  })
  .strict();
const RequiredDisclaimer = z
  .object({ kind: z.literal("required_disclaimer"), text: z.string().trim().min(1).max(1000) })
  .strict();
const MustCite = z.object({ kind: z.literal("must_cite") }).strict();
const Pattern = z
  .object({
    kind: z.literal("pattern"),
    pattern: z
      .string()
      .min(1)
      .max(500)
      .refine(compiles, "This pattern cannot be read (patterns use RE2 syntax, without backreferences)."),
    /** forbid: no sentence may match; require: the text must match somewhere. */
    mode: z.enum(["forbid", "require"]),
  })
  .strict();
const MaxLength = z.object({ kind: z.literal("max_length"), words: z.number().int().min(1).max(100_000) }).strict();

/** The checks the validator runs itself, without a model. */
export const MechanicalCheck = z.discriminatedUnion("kind", [
  ForbiddenPhrases,
  RequiredDisclaimer,
  MustCite,
  Pattern,
  MaxLength,
]);
export type MechanicalCheck = z.infer<typeof MechanicalCheck>;

/**
 * A principle the model judges, by its criterion (the principle in words: "never advise a
 * patient directly"), for what no mechanical check expresses. Only with a model: without one it
 * runs its declared mechanical `fallback`, or cannot be enabled.
 */
export const JudgedCheck = z
  .object({
    kind: z.literal("judged"),
    criterion: z.string().trim().min(1).max(2000),
    fallback: MechanicalCheck.optional(),
  })
  .strict();
export type JudgedCheck = z.infer<typeof JudgedCheck>;

export const PrincipleCheck = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("builtin") }).strict(),
  ForbiddenPhrases,
  RequiredDisclaimer,
  MustCite,
  Pattern,
  MaxLength,
  JudgedCheck,
]);
export type PrincipleCheck = z.infer<typeof PrincipleCheck>;

function compiles(pattern: string): boolean {
  try {
    RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    return true;
  } catch {
    return false;
  }
}

/** Which content each kind reads: citations and disclaimers belong to answers, wording to everything. */
export function checkApplies(check: PrincipleCheck, content: ContentType): boolean {
  switch (check.kind) {
    case "must_cite":
    case "required_disclaimer":
    case "max_length":
      return content === "response";
    // The model judges any text against the criterion: an answer whole, a plan's steps and a
    // decision's options one at a time (principle-review.ts).
    case "judged":
      return true;
    default:
      return true;
  }
}

export interface CheckContext {
  content: ContentType;
  knownCitations: ReadonlySet<number>;
  /** Sentences shorter than this are not claims that need a source ("In short:"). */
  claimMinWords: number;
  /** Sentences that need no source of their own (the engine's caveat, a required disclaimer). */
  exempt: ReadonlySet<string>;
}

export interface CheckOutcome {
  /** Why the text fails, or null when it passes. */
  failure: string | null;
  /** The text as the principle requires it (the same text when it passes or cannot be mended). */
  revised: string;
}

const WITHHELD = "[withheld]";
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A phrase matched as whole words, in any case. */
const phraseRe = (p: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(p)}(?![\\p{L}\\p{N}])`, "giu");

/** Runs one tenant-defined check on the text (which may already carry earlier revisions). */
export function runCheck(check: MechanicalCheck, text: string, ctx: CheckContext): CheckOutcome {
  switch (check.kind) {
    case "forbidden_phrases": {
      const found = check.phrases.filter((p) => phraseRe(p).test(text));
      if (found.length === 0) return { failure: null, revised: text };
      // The phrases are not repeated in the verdict, which an answer may quote when it explains itself.
      const failure = `${found.length} forbidden phrase(s)`;
      // A plan's step or a decision's option cannot simply lose its sentence: the phrase is withheld there.
      const replacement = check.replacement ?? (ctx.content === "response" ? undefined : WITHHELD);
      if (replacement !== undefined) {
        let revised = text;
        for (const p of found) revised = revised.replace(phraseRe(p), replacement);
        return { failure, revised };
      }
      return { failure, revised: dropClaims(text, (c) => found.some((p) => phraseRe(p).test(c.text))) };
    }
    case "required_disclaimer": {
      if (text.includes(check.text)) return { failure: null, revised: text };
      return { failure: "the required disclaimer is missing", revised: `${text.trimEnd()}\n\n${check.text}` };
    }
    case "must_cite": {
      const uncited = claimsOf(text).filter(
        (c) =>
          c.kind === "sentence" &&
          c.text.split(/\s+/).length >= ctx.claimMinWords &&
          !c.citations.some((n) => ctx.knownCitations.has(n)) &&
          !ctx.exempt.has(c.text),
      );
      if (uncited.length === 0) return { failure: null, revised: text };
      return { failure: `${uncited.length} sentence(s) without a source`, revised: withoutClaims(text, uncited) };
    }
    case "pattern": {
      const re = RE2JS.compile(check.pattern, RE2JS.CASE_INSENSITIVE);
      if (check.mode === "require") {
        // Nothing can be added that would match on the author's behalf: the text fails as it is.
        return re.matcher(text).find()
          ? { failure: null, revised: text }
          : { failure: `nothing matches the required pattern ${check.pattern}`, revised: text };
      }
      const matching = claimsOf(text).filter((c) => re.matcher(c.text).find());
      if (matching.length === 0 && !re.matcher(text).find()) return { failure: null, revised: text };
      return {
        failure: `${Math.max(1, matching.length)} sentence(s) match the forbidden pattern ${check.pattern}`,
        revised: withoutClaims(text, matching),
      };
    }
    case "max_length": {
      const words = text.split(/\s+/).filter(Boolean).length;
      if (words <= check.words) return { failure: null, revised: text };
      return { failure: `${words} words, more than ${check.words}`, revised: shortened(text, check.words) };
    }
  }
}

const dropClaims = (text: string, drop: (c: Claim) => boolean) => withoutClaims(text, claimsOf(text).filter(drop));

/** The text cut after its last whole sentence within the limit (or the first sentence's words when none fits). */
function shortened(text: string, limit: number): string {
  const claims = claimsOf(text);
  let end = 0;
  for (const c of claims) {
    if (text.slice(0, c.end).split(/\s+/).filter(Boolean).length > limit) break;
    end = c.end;
  }
  if (end > 0) return text.slice(0, end).trim();
  return text.split(/\s+/).filter(Boolean).slice(0, limit).join(" ");
}
