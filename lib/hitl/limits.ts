import { errors } from "@/lib/errors";
import { HITL_LIMITS } from "./contract";
import { hitlErrors } from "./errors";

export { HITL_LIMITS };

export function requireRequestId(requestId: unknown): string {
  if (typeof requestId !== "string" || requestId.trim().length === 0) {
    throw errors.invalidField("request_id", "request_id is required on every mutation.");
  }
  if (requestId.length > HITL_LIMITS.requestIdChars) {
    throw errors.invalidField("request_id", `request_id is longer than ${HITL_LIMITS.requestIdChars} characters.`);
  }
  return requestId;
}

export function requireText(field: string, value: unknown, max: number): string {
  if (typeof value !== "string" || value.trim().length === 0) throw errors.invalidField(field, `${field} is required.`);
  if (value.length > max) throw errors.invalidField(field, `${field} is longer than ${max} characters.`);
  return value;
}

export function optionalText(field: string, value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  return requireText(field, value, max);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON object no larger than the payload limit. */
export function requireJsonObject(field: string, value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw errors.invalidField(field, `${field} must be a JSON object.`);
  const bytes = Buffer.byteLength(JSON.stringify(value), "utf8");
  if (bytes > HITL_LIMITS.payloadBytes) throw hitlErrors.tooLarge(field, HITL_LIMITS.payloadBytes);
  return value;
}
