import { isUtf8 } from "node:buffer";
import {
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type PendingWrite,
  type SerializerProtocol,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import type { BlobRow, WriteRow } from "./save-sql";

const utf8 = new TextDecoder();

/** Serialized values of the channels named in `newVersions`; a channel without a value is "empty". */
export function dumpBlobs(
  serde: SerializerProtocol,
  values: Record<string, unknown>,
  newVersions: ChannelVersions,
): Promise<BlobRow[]> {
  return Promise.all(
    Object.entries(newVersions).map(async ([channel, version]): Promise<BlobRow> => {
      if (!(channel in values)) return { channel, version: String(version), type: "empty", blob: null };
      const [type, bytes] = await serde.dumpsTyped(values[channel]);
      return { channel, version: String(version), type, blob: storable(type, bytes) };
    }),
  );
}

/** The checkpoint without its channel values, which live in checkpoint_blobs. */
export function dumpCheckpoint(checkpoint: Checkpoint): string {
  const { channel_values: _values, ...rest } = checkpoint;
  return JSON.stringify(rest);
}

/**
 * Metadata as JSON text for the jsonb column (list filters match against it), produced by the
 * serializer so that what it revives on load is what it wrote.
 */
export async function dumpMetadata(
  serde: SerializerProtocol,
  metadata: CheckpointMetadata,
): Promise<{ json: string; parsed: Record<string, unknown> }> {
  const [, bytes] = await serde.dumpsTyped(metadata);
  const json = utf8.decode(bytes);
  const parsed = JSON.parse(json) as Record<string, unknown>;
  // jsonb refuses \u0000 in strings, which JSON text may carry.
  if (!json.includes("\\u0000")) return { json, parsed };
  const cleaned = JSON.stringify(parsed, (_key, value) =>
    typeof value === "string" ? value.replaceAll("\0", "") : value,
  );
  return { json: cleaned, parsed: JSON.parse(cleaned) };
}

export async function dumpWrites(
  serde: SerializerProtocol,
  writes: PendingWrite[],
  taskId: string,
  taskPath: string,
): Promise<WriteRow[]> {
  return Promise.all(
    writes.map(async ([channel, value], index): Promise<WriteRow> => {
      const [type, bytes] = await serde.dumpsTyped(value);
      return { taskId, taskPath, idx: WRITES_IDX_MAP[channel] ?? index, channel, type, blob: storable(type, bytes) };
    }),
  );
}

/**
 * Base64 of a serialized value, once a "json" one is known to be text: JSON is read back as text
 * (select-sql.ts), and a NUL byte or invalid UTF-8 there would make its whole checkpoint
 * unreadable. JSON.stringify never produces either, so this only stops a custom serializer
 * that labels other bytes "json".
 */
function storable(type: string, bytes: Uint8Array): string {
  if (type === "json" && (!isUtf8(bytes) || bytes.includes(0)))
    throw new TypeError('The checkpoint serializer returned a "json" value that is not UTF-8 text without NUL bytes');
  return base64(bytes);
}

// Values travel to the server as base64 text: drivers encode bytea in JavaScript loops (PGlite) or
// as hex (postgres-js, twice the bytes), while Buffer's base64 is native and a third larger at most.
function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}
