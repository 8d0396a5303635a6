import type { z } from "zod";
import { config } from "@/lib/config";
import { DomainError, errors } from "@/lib/errors";
import { unstorableText } from "./unstorable-text";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Deeper JSON than any request of the API needs; deeper still overflows recursive code later on. */
const MAX_JSON_DEPTH = 64;

/** How long a client may take to send a whole body (ms): a trickled body must not hold a request. */
function bodyDeadlineMs(): number {
  return config().bodyTimeoutMs;
}

/**
 * Reads a JSON body with a hard size limit and a deadline, and validates it. The limit is
 * enforced while reading, so a client that lies in Content-Length (or sends none) cannot make us
 * buffer more. A body that is not UTF-8 (RFC 8259 requires it) is invalid JSON rather than text
 * with U+FFFD put in silently. Text with a NUL character or a lone surrogate, which no database
 * column can hold as sent, and JSON nested deeper than the API ever needs are refused before the
 * schema sees them.
 */
export async function parseBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit = DEFAULT_BODY_LIMIT,
): Promise<z.infer<S>> {
  const { bytes } = await readBody(req, limit, "application/json", (type) => !type || type.includes("json"));
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw errors.badJson();
  }
  refuseUnstorable(value);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw errors.validation(parsed.error.issues);
  return parsed.data;
}

/**
 * Reads a small multipart form of text fields (what an HTML form posts with JavaScript off) with
 * the same size limit and deadline as JSON, and validates its fields as one object. File parts
 * are refused: the forms that post here hold only text.
 */
export async function parseFormFields<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit = DEFAULT_BODY_LIMIT,
): Promise<z.infer<S>> {
  const { bytes, contentType } = await readBody(req, limit, "multipart/form-data", (type) =>
    type.startsWith("multipart/form-data"),
  );
  let form: FormData;
  try {
    form = await new Response(Buffer.from(bytes), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw errors.invalidField("body", "The body is not a readable multipart form.");
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") throw errors.invalidField(key, "Only text fields are accepted here.");
    fields[key] = value;
  }
  refuseUnstorable(fields);
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw errors.validation(parsed.error.issues);
  return parsed.data;
}

/**
 * The whole body within the limit and the deadline, once its declared length and its type
 * (`accepts`, given the lower-cased Content-Type, "" for none) pass, in that order.
 */
async function readBody(
  req: Request,
  limit: number,
  expected: string,
  accepts: (type: string) => boolean,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw errors.tooLarge(limit);
  const contentType = req.headers.get("content-type") ?? "";
  if (!accepts(contentType.toLowerCase())) throw errors.unsupportedMediaType(expected);
  return { bytes: await readLimited(req, limit, bodyDeadlineMs()), contentType };
}

async function readLimited(req: Request, limit: number, deadlineMs: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(bodyTimeout(deadlineMs)), deadlineMs);
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw errors.tooLarge(limit);
      chunks.push(value);
    }
  } catch (error) {
    // Stop reading: the client's remaining bytes are not ours to wait for.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

const bodyTimeout = (ms: number) =>
  new DomainError(
    "invalid",
    "BODY_TIMEOUT",
    `The request body did not arrive within ${Math.ceil(ms / 1000)} seconds.`,
    { timeout_ms: ms },
  );

const tooDeep = () =>
  new DomainError("invalid", "JSON_TOO_DEEP", `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`, {
    max_depth: MAX_JSON_DEPTH,
  });

interface Visit {
  value: unknown;
  depth: number;
  key: string | number | null;
  parent: Visit | null;
}

const pathOf = (visit: Visit): string => {
  const keys: (string | number)[] = [];
  for (let at: Visit | null = visit; at?.key != null; at = at.parent) keys.unshift(at.key);
  return keys.join(".");
};

/** Walks the parsed document without recursion (it may be nested arbitrarily deep). */
function refuseUnstorable(root: unknown): void {
  const stack: Visit[] = [{ value: root, depth: 0, key: null, parent: null }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof value === "string") {
      const problem = unstorableText(value);
      if (problem) throw errors.invalidField(pathOf(visit) || "body", problem);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) throw tooDeep();
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, i) => [i, item])
      : Object.entries(value);
    for (const [key, item] of entries) {
      const problem = typeof key === "string" ? unstorableText(key) : null;
      if (problem) throw errors.invalidField(pathOf(visit) || "body", `Keys: ${problem}`);
      stack.push({ value: item, depth: depth + 1, key, parent: visit });
    }
  }
}

/** Parses URL search parameters with a zod object schema. */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw errors.validation(parsed.error.issues);
  return parsed.data;
}
