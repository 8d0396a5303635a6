import type { z } from "zod";
import { errors } from "@/lib/errors";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a JSON body with a hard size limit and validates it. The limit is enforced while
 * reading, so a client that lies in Content-Length (or sends none) cannot make us buffer more.
 */
export async function parseBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit = DEFAULT_BODY_LIMIT,
): Promise<z.infer<S>> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw errors.tooLarge(limit);
  const contentType = req.headers.get("content-type") ?? "";
  if (contentType && !contentType.toLowerCase().includes("json")) throw errors.unsupportedMediaType("application/json");
  const text = await readLimited(req, limit);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw errors.badJson();
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw errors.validation(parsed.error.issues);
  return parsed.data;
}

async function readLimited(req: Request, limit: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw errors.tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Parses URL search parameters with a zod object schema. */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw errors.validation(parsed.error.issues);
  return parsed.data;
}
