import { errors } from "@/lib/errors";

// A keyset cursor over (timestamp, key): the timestamp as the database prints it, since a
// JavaScript Date would round microseconds away and a page boundary could then skip rows.

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

export function encodeKeyset(at: string, key: string | number): string {
  return Buffer.from(JSON.stringify([at, key])).toString("base64url");
}

/** The cursor's position, or a 400 naming `cursor` when it is not one a list handed out. */
export function decodeKeyset<K extends string | number>(
  cursor: string,
  isKey: (key: unknown) => key is K,
): { at: string; key: K } {
  try {
    const [at, key] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof at === "string" && TIMESTAMP.test(at) && isKey(key)) return { at, key };
  } catch {
    // refused below
  }
  throw errors.invalidField("cursor", "The cursor is not one this list handed out.");
}
