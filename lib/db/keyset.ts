import { errors } from "@/lib/errors";

// Keyset pagination's cursor: the sort value and the key of the last row a page handed out,
// as base64url JSON, opaque to clients. One codec for every list, so each list only says what
// its two parts are; a cursor that is not one of ours is a 400 naming `cursor`.

export type KeysetPart = string | number;
type Guard<T extends KeysetPart> = (value: unknown) => value is T;

export function encodeCursor(sort: KeysetPart, key: KeysetPart): string {
  return Buffer.from(JSON.stringify([sort, key]), "utf8").toString("base64url");
}

/** The cursor's (sort, key), or a 400 naming `cursor` when it is not one a list handed out. */
export function decodeCursor<S extends KeysetPart, K extends KeysetPart>(
  cursor: string,
  isSort: Guard<S>,
  isKey: Guard<K>,
): [S, K] {
  try {
    const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parts) && parts.length === 2 && isSort(parts[0]) && isKey(parts[1])) return [parts[0], parts[1]];
  } catch {
    // refused below
  }
  throw errors.invalidField("cursor", "The cursor is not one this list handed out.");
}

// Timestamps travel as the database prints them: a JavaScript Date would round microseconds
// away, and a page boundary could then skip rows written within the same millisecond.
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a uuid as the database prints one: before it meets a `uuid` column or cast. */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

/** The guards the lists' cursors are made of. */
export const keysetParts = {
  timestamp: (value: unknown): value is string => typeof value === "string" && PG_TIMESTAMP.test(value),
  uuid: isUuid,
  integer: (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value),
  /** An opaque key of at most 100 characters. */
  text: (value: unknown): value is string => typeof value === "string" && value.length <= 100,
};
