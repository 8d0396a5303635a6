import { Ajv, type CodeOptions, type ValidateFunction } from "ajv";
import { RE2JS } from "re2js";
import { check as checkRegExp } from "recheck";
import { errors } from "@/lib/errors";
import { processSingleton } from "@/lib/process";
import { hitlErrors } from "./errors";
import { payloadIssueMessage } from "./payload-words";

// Payloads are validated against the adapter's JSON Schema with Ajv. Compiled validators are
// cached by the schema's text: a stored version never changes, so neither does its validator.
//
// Validation time is bounded: `pattern` and `patternProperties` run on RE2 (re2js), whose
// matching is linear in the input, instead of the backtracking RegExp; `uniqueItems` over
// items that are not plain scalars compares every pair, so a schema must cap those arrays at
// UNIQUE_ITEMS_MAX; `format` is not evaluated (no format plugin); and the payload itself is at
// most HITL_LIMITS.payloadBytes. At registration a schema is also refused when one of its
// patterns would backtrack catastrophically in an ordinary RegExp engine (checked with
// recheck), so no client validating against the published schema inherits a ReDoS either.

/** The longest array a `uniqueItems` over non-scalar items may be (it compares every pair). */
const UNIQUE_ITEMS_MAX = 1000;
/** How long the ReDoS check of one schema's patterns may take, in all. */
const PATTERN_CHECK_MS = 10_000;
const MAX_ISSUES = 20;

/** A pattern the registry does not accept; its message names the pattern. */
class UnusablePattern extends Error {}

const quote = (pattern: string) => JSON.stringify(pattern);

/**
 * The first backreference of a valid (`u` flag) ECMAScript pattern: `\1`…`\9` or `\k<name>`.
 * RE2 has none, and re2js's translation would turn `\k<name>` into the literal `k<name>`.
 */
function backreference(pattern: string): string | null {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "\\") continue;
    const next = pattern[i + 1] ?? "";
    if (next >= "1" && next <= "9") return pattern.slice(i).match(/^\\\d+/)?.[0] ?? null;
    if (next === "k" && pattern[i + 2] === "<") return pattern.slice(i).match(/^\\k<[^>]*>/)?.[0] ?? null;
    i++; // the escaped character
  }
  return null;
}

/** Compiles a JSON Schema pattern for Ajv: ECMAScript syntax, matched by RE2 in linear time. */
function re2Pattern(pattern: string, flags: string): { test: (input: string) => boolean; toString: () => string } {
  try {
    new RegExp(pattern, flags); // JSON Schema patterns are ECMAScript regexes; compiling runs nothing
  } catch (error) {
    throw new UnusablePattern(
      `The pattern ${quote(pattern)} is not a valid regular expression: ${(error as Error).message}`,
    );
  }
  const unsupported = (reason: string) =>
    new UnusablePattern(
      `The pattern ${quote(pattern)} cannot be used: patterns are matched by RE2, which has no backreferences ` +
        `or lookarounds and lacks some other JavaScript syntax (${reason}).`,
    );
  const backref = backreference(pattern);
  if (backref) throw unsupported(`backreference ${backref}`);
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    throw unsupported((error as Error).message);
  }
  // Ajv caches compiled patterns by toString(), so it must name the pattern.
  return { test: (input) => re2.test(input), toString: () => `re2:/${pattern}/${flags}` };
}
const regExp: NonNullable<CodeOptions["regExp"]> = Object.assign(re2Pattern, { code: "re2Pattern" });

const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp } });
const cache = new Map<string, ValidateFunction>();

export function compileSchema(jsonSchema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(jsonSchema);
  let validate = cache.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(jsonSchema);
    } catch (error) {
      if (error instanceof UnusablePattern) throw errors.invalidField("schema_json", error.message);
      throw errors.invalidField("schema_json", `The schema does not compile: ${(error as Error).message}`);
    }
    cache.set(key, validate);
  }
  return validate;
}

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const ONE_SUBSCHEMA = [
  "additionalItems",
  "additionalProperties",
  "contains",
  "else",
  "if",
  "items",
  "not",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
];
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "items", "oneOf", "prefixItems"];
const SUBSCHEMA_MAPS = ["$defs", "definitions", "dependencies", "dependentSchemas", "patternProperties", "properties"];

/** Every (sub)schema of a schema, through the keywords that hold schemas (not const, enum, default…). */
function* subschemas(schema: Schema): Generator<Schema> {
  yield schema;
  for (const keyword of ONE_SUBSCHEMA) {
    const value = schema[keyword];
    if (isSchema(value)) yield* subschemas(value);
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    const value = schema[keyword];
    if (Array.isArray(value)) for (const item of value) if (isSchema(item)) yield* subschemas(item);
  }
  for (const keyword of SUBSCHEMA_MAPS) {
    const value = schema[keyword];
    if (isSchema(value)) for (const item of Object.values(value)) if (isSchema(item)) yield* subschemas(item);
  }
}

/** Ajv checks uniqueItems with a hash when every item is typed as a scalar, pairwise otherwise. */
function scalarItems(items: unknown): boolean {
  if (!isSchema(items)) return false;
  const types = typeof items.type === "string" ? [items.type] : Array.isArray(items.type) ? items.type : [];
  return types.length > 0 && !types.some((t) => t === "object" || t === "array");
}

/** pattern -> null (fine) or why it is refused: recheck's verdicts, kept (timeouts are not). */
const verdicts = new Map<string, string | null>();

async function patternVerdict(pattern: string, timeout: number): Promise<string | null> {
  const known = verdicts.get(pattern);
  if (known !== undefined) return known;
  const result = await checkRegExp(pattern, "u", { timeout });
  if (result.status === "unknown" && result.error.kind === "timeout") {
    return `The pattern ${quote(pattern)} could not be checked for catastrophic backtracking in time; simplify it.`;
  }
  let verdict: string | null = null;
  if (result.status === "vulnerable" && result.complexity.type === "exponential") {
    verdict =
      `The pattern ${quote(pattern)} can backtrack catastrophically (exponential time on input such as ` +
      `${result.attack.pattern}); rewrite it without nested or overlapping repetition.`;
  } else if (result.status === "unknown") {
    verdict = `The pattern ${quote(pattern)} could not be checked for catastrophic backtracking (${result.error.kind}).`;
  }
  // A polynomial pattern is accepted: RE2 matches it in linear time here.
  if (verdicts.size >= 1000) verdicts.clear();
  verdicts.set(pattern, verdict);
  return verdict;
}

/**
 * Throws VALIDATION_FAILED (path `schema_json`) for a schema the registry must not store: one
 * Ajv cannot compile, a pattern RE2 cannot run (backreferences, lookarounds) or that could
 * backtrack catastrophically, or a `uniqueItems` that would compare an unbounded number of pairs.
 */
export async function assertUsableSchema(jsonSchema: Record<string, unknown>): Promise<void> {
  compileSchema(jsonSchema);
  const patterns = new Set<string>();
  for (const node of subschemas(jsonSchema)) {
    if (typeof node.pattern === "string") patterns.add(node.pattern);
    if (isSchema(node.patternProperties)) for (const key of Object.keys(node.patternProperties)) patterns.add(key);
    if (node.uniqueItems === true && !scalarItems(node.items)) {
      const max = node.maxItems;
      if (typeof max !== "number" || max > UNIQUE_ITEMS_MAX) {
        throw errors.invalidField(
          "schema_json",
          `uniqueItems over items that are not typed as scalars needs maxItems of at most ${UNIQUE_ITEMS_MAX} ` +
            "(every pair of items is compared).",
        );
      }
    }
  }
  const deadline = Date.now() + PATTERN_CHECK_MS;
  for (const pattern of patterns) {
    const left = deadline - Date.now();
    const verdict =
      left > 0
        ? await patternVerdict(pattern, left)
        : `The schema has more patterns than can be checked for catastrophic backtracking in time (stopped at ${quote(pattern)}).`;
    if (verdict) throw errors.invalidField("schema_json", verdict);
  }
}

export interface PayloadIssue {
  path: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

/** Throws PAYLOAD_INVALID (422) with Ajv's findings when the payload does not match. */
export function assertPayload(
  adapter: string,
  version: number,
  jsonSchema: Record<string, unknown>,
  payload: unknown,
): void {
  const validate = compileSchema(jsonSchema);
  if (validate(payload)) return;
  const issues: PayloadIssue[] = (validate.errors ?? []).slice(0, MAX_ISSUES).map((e) => ({
    path: e.instancePath || "/",
    keyword: e.keyword,
    message: payloadIssueMessage(jsonSchema, e),
    params: e.params as Record<string, unknown>,
  }));
  throw hitlErrors.payloadInvalid(adapter, version, issues);
}

/** An adapter's own rule for what a decision may modify (e.g. only a checkpoint's editable fields). */
export type ModificationCheck = (modifications: Record<string, unknown>) => PayloadIssue[];

// Process-wide: boot() installs the checks once, for every copy of this module.
const holder = processSingleton(
  "modification-checks",
  (): { modificationChecks?: Map<string, ModificationCheck> } => ({}),
);

export function installModificationChecks(checks: Record<string, ModificationCheck>): void {
  holder.modificationChecks ??= new Map();
  for (const [adapter, check] of Object.entries(checks)) holder.modificationChecks.set(adapter, check);
}

/** Throws PAYLOAD_INVALID (422) when the adapter's rule refuses the modifications. */
export function assertModifications(adapter: string, version: number, modifications: Record<string, unknown>): void {
  const issues = holder.modificationChecks?.get(adapter)?.(modifications) ?? [];
  if (issues.length > 0) throw hitlErrors.payloadInvalid(adapter, version, issues.slice(0, MAX_ISSUES));
}
