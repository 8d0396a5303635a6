import { decodeCursor, encodeCursor, keysetParts } from "@/lib/db";

// The audit lists' cursor over (timestamp, key): the timestamp as the database prints it.

export function encodeKeyset(at: string, key: string | number): string {
  return encodeCursor(at, key);
}

/** The cursor's position, or a 400 naming `cursor` when it is not one a list handed out. */
export function decodeKeyset<K extends string | number>(
  cursor: string,
  isKey: (key: unknown) => key is K,
): { at: string; key: K } {
  const [at, key] = decodeCursor(cursor, keysetParts.timestamp, isKey);
  return { at, key };
}
