import {
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  compareWritesSortKeys,
  maxChannelVersion,
  type SerializerProtocol,
  TASKS,
  writesSortKey,
} from "@langchain/langgraph-checkpoint";
import { type SendRow, type TupleRow, TupleRowKind } from "./select-sql";

// Rows of select-sql.ts back into the parts of a CheckpointTuple.

/** A checkpoint row with its parts, as `selectTuples` returns them. */
export interface StoredTuple {
  head: TupleRow;
  values: TupleRow[];
  writes: TupleRow[];
  /** Pending sends of the parent, for checkpoints older than format 4 (see `selectSendsOf`). */
  sends: SendRow[];
}

export function groupTupleRows(rows: TupleRow[]): StoredTuple[] {
  const byOrd = new Map<number, StoredTuple>();
  for (const row of rows) {
    let stored = byOrd.get(row.ord);
    if (!stored) {
      stored = { head: row, values: [], writes: [], sends: [] };
      byOrd.set(row.ord, stored);
    }
    if (row.kind === TupleRowKind.checkpoint) stored.head = row;
    else if (row.kind === TupleRowKind.value) stored.values.push(row);
    else stored.writes.push(row);
  }
  return [...byOrd.entries()].sort(([a], [b]) => a - b).map(([, stored]) => stored);
}

/** Checkpoints written before format 4 whose parent may hold their pending sends. */
export function needingSends(stored: StoredTuple[]): StoredTuple[] {
  return stored.filter((t) => (t.head.v ?? 4) < 4 && t.head.parent_checkpoint_id);
}

export function attachSends(stored: StoredTuple[], sends: SendRow[]): void {
  const key = (threadId: unknown, ns: unknown, id: unknown) => JSON.stringify([threadId, ns, id]);
  const byParent = new Map<string, SendRow[]>();
  for (const row of sends) {
    const parent = key(row.thread_id, row.checkpoint_ns, row.checkpoint_id);
    byParent.set(parent, [...(byParent.get(parent) ?? []), row]);
  }
  for (const t of stored) {
    t.sends = byParent.get(key(t.head.thread_id, t.head.checkpoint_ns, t.head.parent_checkpoint_id)) ?? [];
  }
}

export async function loadCheckpoint(
  serde: SerializerProtocol,
  stored: StoredTuple,
  nextVersion: () => string | number,
): Promise<Checkpoint> {
  const checkpoint = JSON.parse(stored.head.checkpoint as string) as Checkpoint;
  checkpoint.channel_versions ??= {};
  checkpoint.versions_seen ??= {};
  const entries = await Promise.all(
    stored.values.map(async (row) => [row.channel as string, await loadValue(serde, row)] as const),
  );
  checkpoint.channel_values = Object.fromEntries(entries);
  if (stored.sends.length > 0) await migratePendingSends(serde, checkpoint, stored.sends, nextVersion);
  return checkpoint;
}

/** Format 4 moved sends into the TASKS channel; older checkpoints are upgraded on read, as upstream does. */
async function migratePendingSends(
  serde: SerializerProtocol,
  checkpoint: Checkpoint,
  sends: SendRow[],
  nextVersion: () => string | number,
): Promise<void> {
  const ordered = [...sends].sort((a, b) => compareWritesSortKeys(sortKey(a), sortKey(b)));
  checkpoint.channel_values[TASKS] = await Promise.all(ordered.map((row) => loadValue(serde, row)));
  const versions = Object.values(checkpoint.channel_versions);
  checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : nextVersion();
}

/** Pending writes in the order live execution applies them: (task_path, task_id, idx). */
export function loadPendingWrites(serde: SerializerProtocol, rows: TupleRow[]): Promise<CheckpointPendingWrite[]> {
  const ordered = [...rows].sort((a, b) => compareWritesSortKeys(sortKey(a), sortKey(b)));
  return Promise.all(
    ordered.map(
      async (row): Promise<CheckpointPendingWrite> => [
        row.task_id as string,
        row.channel as string,
        await loadValue(serde, row),
      ],
    ),
  );
}

export function loadMetadata(serde: SerializerProtocol, row: TupleRow): Promise<CheckpointMetadata> {
  return serde.loadsTyped("json", row.metadata as string);
}

interface SerializedValue {
  type: string | null;
  blob: string | null;
  task_id: string | null;
  task_path: string | null;
  idx: number | null;
}

function sortKey(row: SerializedValue) {
  return writesSortKey(row.task_path ?? "", row.task_id ?? "", row.idx ?? 0);
}

function loadValue(serde: SerializerProtocol, row: SerializedValue): Promise<unknown> {
  // JSON comes back as text (select-sql.ts); serializers take it as a string as well as bytes.
  if (row.type === "json") return serde.loadsTyped("json", row.blob ?? "");
  const buffer = Buffer.from(row.blob ?? "", "base64");
  // A plain Uint8Array, not a Buffer: callers that stored raw bytes get back what they stored.
  return serde.loadsTyped(row.type as string, new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
}
