import { Ajv, type ValidateFunction } from "ajv";
import { errors } from "@/lib/errors";
import { hitlErrors } from "./errors";

// Payloads are validated against the adapter's JSON Schema with Ajv. Compiled validators are
// cached by the schema's text: a stored version never changes, so neither does its validator.

const ajv = new Ajv({ allErrors: true, strict: false });
const cache = new Map<string, ValidateFunction>();
const MAX_ISSUES = 20;

export function compileSchema(jsonSchema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(jsonSchema);
  let validate = cache.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(jsonSchema);
    } catch (error) {
      throw errors.invalidField("json_schema", `The schema does not compile: ${(error as Error).message}`);
    }
    cache.set(key, validate);
  }
  return validate;
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
    message: e.message ?? "is invalid",
    params: e.params as Record<string, unknown>,
  }));
  throw hitlErrors.payloadInvalid(adapter, version, issues);
}

/** An adapter's own rule for what a decision may modify (e.g. only a checkpoint's editable fields). */
export type ModificationCheck = (modifications: Record<string, unknown>) => PayloadIssue[];

// On globalThis: boot() installs the checks once, for every copy of this module.
const holder = globalThis as unknown as { __vigilModificationChecks?: Map<string, ModificationCheck> };

export function installModificationChecks(checks: Record<string, ModificationCheck>): void {
  holder.__vigilModificationChecks ??= new Map();
  for (const [adapter, check] of Object.entries(checks)) holder.__vigilModificationChecks.set(adapter, check);
}

/** Throws PAYLOAD_INVALID (422) when the adapter's rule refuses the modifications. */
export function assertModifications(adapter: string, version: number, modifications: Record<string, unknown>): void {
  const issues = holder.__vigilModificationChecks?.get(adapter)?.(modifications) ?? [];
  if (issues.length > 0) throw hitlErrors.payloadInvalid(adapter, version, issues.slice(0, MAX_ISSUES));
}
