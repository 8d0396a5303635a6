import { type SQL, sql } from "drizzle-orm";
import { DATA_CLASSIFICATIONS, type DataClassification, type DataTouched, type TraceEvent } from "./contract";

// The trace writer's `classify` hook: an event says what data it read (`touched`), and the
// writer derives the design's columns from it, so no producer has to remember the rules.

/** The order of sensitivity: the list is written from least to most sensitive. */
const RANK: ReadonlyMap<DataClassification, number> = new Map(DATA_CLASSIFICATIONS.map((c, i) => [c, i]));

/** The more sensitive of two classes (null when neither is set). */
export function higherClass(
  a: DataClassification | null | undefined,
  b: DataClassification | null | undefined,
): DataClassification | null {
  if (a == null) return b ?? null;
  if (b == null) return a;
  return (RANK.get(a) ?? 0) >= (RANK.get(b) ?? 0) ? a : b;
}

/** How `phi_fields` names a piece of PHI: `knowledge:<document id>` for a knowledge document. */
export const phiFieldOf = (data: Pick<DataTouched, "kind" | "id">) => `${data.kind}:${data.id}`;

export type Classification = Pick<TraceEvent, "dataClassification" | "phiAccessed" | "phiFields">;

/**
 * The event's classification columns, from what it says it touched and what it already set:
 * the highest class of either; PHI accessed when either says so; the PHI fields of both, each
 * once, in the order first met. An event that touched nothing keeps what it set.
 */
export function classify(event: TraceEvent): Classification {
  const touched = event.touched ?? [];
  let dataClassification = event.dataClassification ?? null;
  const fields = new Set(event.phiFields ?? []);
  for (const data of touched) {
    dataClassification = higherClass(dataClassification, data.classification);
    if (data.classification === "phi") fields.add(phiFieldOf(data));
  }
  const phiAccessed = (event.phiAccessed ?? false) || touched.some((data) => data.classification === "phi");
  return {
    dataClassification,
    phiAccessed,
    phiFields: fields.size > 0 ? [...fields] : (event.phiFields ?? null),
  };
}

const CLASS_ARRAY = sql.raw(`array[${DATA_CLASSIFICATIONS.map((c) => `'${c}'`).join(", ")}]::text[]`);

/** A class's rank (1 public … 4 phi), so that `max` over events picks the most sensitive. */
export const classRank = (column: SQL): SQL => sql`array_position(${CLASS_ARRAY}, ${column})`;

/** The class of a rank `classRank` gave (null for none). */
export const classOfRank = (rank: number | null | undefined): DataClassification | null =>
  rank ? (DATA_CLASSIFICATIONS[Number(rank) - 1] ?? null) : null;
