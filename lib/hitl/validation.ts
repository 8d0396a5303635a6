import { Ajv, type ValidateFunction } from "ajv";
import { errors } from "@/lib/http";
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
