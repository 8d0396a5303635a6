import { and, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { decodeCursor as decodeKeyset, encodeCursor as encodeKeyset, keysetParts } from "@/lib/db";

// Keyset pagination: a cursor is the sort value and id of the last row handed out, opaque to
// clients. Every list in the HITL core pages this way, so pages stay stable under inserts.

export const PAGE_MAX = 100;
export const PAGE_DEFAULT = 20;

export function pageSize(limit: number | undefined): number {
  const requested = Number.isFinite(limit) ? Math.trunc(limit as number) : PAGE_DEFAULT;
  return Math.min(Math.max(requested, 1), PAGE_MAX);
}

export function encodeCursor(sortValue: number, id: string): string {
  return encodeKeyset(sortValue, id);
}

export function decodeCursor(cursor: string): { sortValue: number; id: string } {
  const [sortValue, id] = decodeKeyset(cursor, keysetParts.integer, keysetParts.text);
  return { sortValue, id };
}

/** The page and the cursor of the next one, from `limit + 1` fetched rows. */
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => [number, string]) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(...keyOf(last)) : null };
}

/** Rows after the cursor in a list ordered by (sort column, id), both ascending or both descending. */
export function keysetAfter(
  after: { sortValue: number; id: string } | null,
  sortColumn: AnyPgColumn,
  idColumn: AnyPgColumn,
  direction: "asc" | "desc",
): SQL | undefined {
  if (!after) return undefined;
  const beyond = direction === "desc" ? lt : gt;
  return or(beyond(sortColumn, after.sortValue), and(eq(sortColumn, after.sortValue), beyond(idColumn, after.id)));
}
