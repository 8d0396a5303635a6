import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { decodeCursor, encodeCursor, keysetParts, rowsOf, schema, type Tx, withTenant } from "@/lib/db";
import { errors, NotFoundError } from "@/lib/errors";
import { logger } from "@/lib/log";
import type { AuditExport, AuditExportFormat, AuditExportKind, AuditExportManifest } from "./contract";
import { EXPORT_PART_BYTES, ExportFile } from "./export-file";
import { abandonedExports, leaseExport } from "./export-lease";
import { exportSource } from "./export-rows";
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX, type AuditReader } from "./runs-list";

/** Names the code that wrote a file, so a reader knows which column set and encoding to expect. */
export const EXPORT_GENERATOR = "vigil-audit-export/2";

/** Unfinished exports a tenant may have at once: each holds a database connection while it runs. */
const UNFINISHED_MAX = 2;
const ABANDONED = "The process writing this export stopped before it finished; request a new export.";
const FAILED = "The export could not be written; request a new export.";

export interface AuditExportRequest {
  kind: AuditExportKind;
  format: AuditExportFormat;
  /** Epoch ms, inclusive, on the rows' own time (event, decision or submission). */
  from?: number;
  to?: number;
}

/** How big a batch is read and a part written (the defaults suit production; tests shrink them). */
export interface ExportTuning {
  batchRows?: number;
  partBytes?: number;
}

interface ExportRow {
  id: string;
  kind: AuditExportKind;
  format: AuditExportFormat;
  status: AuditExport["status"];
  range_from: Date | string | null;
  range_to: Date | string | null;
  requested_by: string;
  requester_name: string | null;
  created_at: Date | string;
  created_key: string;
  started_at: Date | string | null;
  completed_at: Date | string | null;
  row_count: number | string | null;
  byte_size: number | string | null;
  sha256: string | null;
  chain_head_seq: number | string | null;
  chain_head_hash: string | null;
  generator_version: string | null;
  error: string | null;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

function toExport(row: ExportRow): AuditExport {
  const manifest: AuditExportManifest | null =
    row.status === "ready" && row.sha256 && row.completed_at
      ? {
          rowCount: Number(row.row_count),
          byteSize: Number(row.byte_size),
          sha256: row.sha256,
          chainHead:
            row.chain_head_seq === null || row.chain_head_hash === null
              ? null
              : { seq: Number(row.chain_head_seq), hash: row.chain_head_hash },
          generatorVersion: row.generator_version ?? EXPORT_GENERATOR,
          completedAt: iso(row.completed_at),
        }
      : null;
  return {
    id: row.id,
    kind: row.kind,
    format: row.format,
    status: row.status,
    range: { from: isoOrNull(row.range_from), to: isoOrNull(row.range_to) },
    requestedBy: { id: row.requested_by, name: row.requester_name },
    requestedAt: iso(row.created_at),
    startedAt: isoOrNull(row.started_at),
    manifest,
    error: row.error,
  };
}

const SELECT_EXPORTS = sql`select x.*, x.created_at::text as created_key, m.display_name as requester_name
  from audit_exports x left join memberships m on m.user_id = x.requested_by`;

/** Marks the tenant's exports that no live process is writing as failed and drops their bytes. */
async function failAbandoned(tx: Tx): Promise<void> {
  const dead = await abandonedExports(tx);
  if (dead.length === 0) return;
  const ids = sql.join(
    dead.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(sql`delete from audit_export_parts where export_id in (${ids})`);
  await tx.execute(sql`update audit_exports set status = 'failed', completed_at = now(), error = ${ABANDONED}
    where id in (${ids})`);
}

/**
 * Records an export request and starts writing it in the background in this process: a request
 * handler answers with the id and the client polls `getAuditExport`; a script may await `done`. The lease is taken before the row exists, so no other process
 * can mistake the new row for an abandoned one.
 */
export async function createAuditExport(
  reader: AuditReader,
  request: AuditExportRequest,
  tuning: ExportTuning = {},
): Promise<{ id: string; done: Promise<AuditExportManifest> }> {
  const id = randomUUID();
  const lease = await leaseExport(id);
  try {
    await withTenant(reader, async (tx) => {
      await failAbandoned(tx);
      const [open] = rowsOf<{ n: number }>(
        await tx.execute(sql`select count(*)::int as n from audit_exports where status in ('pending', 'running')`),
      );
      if (Number(open.n) >= UNFINISHED_MAX) {
        throw errors.conflict("EXPORT_BUSY", `At most ${UNFINISHED_MAX} exports run at once; wait for one to finish.`);
      }
      await tx.insert(schema.auditExports).values({
        id,
        tenantId: reader.tenantId,
        kind: request.kind,
        format: request.format,
        rangeFrom: request.from === undefined ? null : new Date(request.from),
        rangeTo: request.to === undefined ? null : new Date(request.to),
        requestedBy: reader.userId,
      });
    });
  } catch (error) {
    await lease.release();
    throw error;
  }
  const done = writeExport(reader, id, tuning);
  // Whoever does not wait for `done` (a request handler) must not see its failure as unhandled.
  done.catch(() => {});
  lease.cover(done.catch(() => {}).finally(() => lease.release()));
  return { id, done };
}

/**
 * Writes a pending export in the caller's time and returns its manifest: for a caller that
 * wants to wait (the benchmark), or to write again an export recorded without being started.
 */
export async function runAuditExport(
  reader: AuditReader,
  exportId: string,
  tuning: ExportTuning = {},
): Promise<AuditExportManifest> {
  const lease = await leaseExport(exportId);
  const work = writeExport(reader, exportId, tuning);
  lease.cover(work.catch(() => {}).finally(() => lease.release()));
  return work;
}

/** Streams the rows into parts under the caller's lease, then records the manifest. */
async function writeExport(reader: AuditReader, exportId: string, tuning: ExportTuning): Promise<AuditExportManifest> {
  const started = await withTenant(reader, async (tx) => {
    const [row] = rowsOf<{ kind: AuditExportKind; format: AuditExportFormat; from_ms: number | null; to_ms: number }>(
      await tx.execute(sql`update audit_exports set status = 'running', started_at = now()
        where id = ${exportId}::uuid and status = 'pending'
        returning kind, format, (extract(epoch from range_from) * 1000)::float8 as from_ms,
          (extract(epoch from least(coalesce(range_to, now()), now())) * 1000)::float8 as to_ms`),
    );
    if (!row) throw errors.conflict("EXPORT_NOT_PENDING", "Only a pending export can be written.");
    const [head] = rowsOf<{ seq: number; hash: string }>(
      await tx.execute(sql`select seq::float8 as seq, hash from execution_trace order by seq desc limit 1`),
    );
    return { ...row, head: head ?? null };
  });
  try {
    const source = exportSource(started.kind, {
      reader,
      from: started.from_ms === null ? null : Number(started.from_ms),
      to: Math.floor(Number(started.to_ms)),
      headSeq: started.head ? Number(started.head.seq) : 0,
    });
    const file = new ExportFile(
      started.format,
      source.columns,
      (part, bytes) =>
        withTenant(reader, async (tx) => {
          await tx.insert(schema.auditExportParts).values({ exportId, tenantId: reader.tenantId, part, bytes });
        }),
      tuning.partBytes ?? EXPORT_PART_BYTES,
    );
    let chainHead = started.head ? { seq: Number(started.head.seq), hash: started.head.hash } : null;
    const read = (after: string | null) =>
      withTenant(reader, (tx) => source.next(tx, after, tuning.batchRows ?? 2000, started.format));
    // The next batch is read while this one is printed and written: the database and this
    // process work at the same time instead of taking turns.
    let reading = read(null);
    for (;;) {
      const batch = await reading;
      if (batch.count === 0) break;
      reading = read(batch.last);
      // An unread batch's failure surfaces when it is awaited; until then it is not unhandled.
      reading.catch(() => {});
      if (batch.text !== undefined) await file.addPrinted(batch.text, batch.count);
      else await file.add(batch.rows ?? []);
      if (batch.chainHead) chainHead = batch.chainHead;
    }
    const summary = await file.end();
    const rows = await withTenant(reader, async (tx) =>
      rowsOf<ExportRow>(
        await tx.execute(sql`with done as (
            update audit_exports set status = 'ready', completed_at = now(), row_count = ${summary.rowCount},
              byte_size = ${summary.byteSize}, sha256 = ${summary.sha256}, chain_head_seq = ${chainHead?.seq ?? null},
              chain_head_hash = ${chainHead?.hash ?? null}, generator_version = ${EXPORT_GENERATOR}
            where id = ${exportId}::uuid and status = 'running' returning *)
          select x.*, x.created_at::text as created_key, null as requester_name from done x`),
      ),
    );
    const manifest = rows[0] ? toExport(rows[0]).manifest : null;
    if (!manifest) throw new Error("the export was no longer running when it finished");
    return manifest;
  } catch (error) {
    logger({ exportId }).error({ err: error }, "audit export failed");
    await withTenant(reader, async (tx) => {
      await tx.execute(sql`delete from audit_export_parts where export_id = ${exportId}::uuid`);
      await tx.execute(sql`update audit_exports set status = 'failed', completed_at = now(), error = ${FAILED}
        where id = ${exportId}::uuid and status = 'running'`);
    }).catch(() => {});
    throw error;
  }
}

/** One export of the tenant (another tenant's is not found), with its manifest once ready. */
export async function getAuditExport(reader: AuditReader, exportId: string): Promise<AuditExport> {
  return withTenant(reader, async (tx) => {
    await failAbandoned(tx);
    const [row] = rowsOf<ExportRow>(await tx.execute(sql`${SELECT_EXPORTS} where x.id = ${exportId}::uuid`));
    if (!row) throw new NotFoundError("Export", { export_id: exportId });
    return toExport(row);
  });
}

function decodeExportCursor(cursor: string): { at: string; id: string } {
  const [at, id] = decodeCursor(cursor, keysetParts.timestamp, keysetParts.uuid);
  return { at, id };
}

/** The tenant's exports, newest first, a page at a time; abandoned ones are marked failed first. */
export async function listAuditExports(
  reader: AuditReader,
  page: { limit?: number; cursor?: string } = {},
): Promise<{ items: AuditExport[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(Math.trunc(page.limit ?? AUDIT_PAGE_DEFAULT), 1), AUDIT_PAGE_MAX);
  const after = page.cursor ? decodeExportCursor(page.cursor) : null;
  const rows = await withTenant(reader, async (tx) => {
    await failAbandoned(tx);
    const where = after
      ? sql`where (x.created_at < ${after.at}::timestamptz
          or (x.created_at = ${after.at}::timestamptz and x.id < ${after.id}::uuid))`
      : sql``;
    return rowsOf<ExportRow>(
      await tx.execute(sql`${SELECT_EXPORTS} ${where} order by x.created_at desc, x.id desc limit ${limit + 1}`),
    );
  });
  const last = rows.length > limit ? rows[limit - 1] : null;
  return {
    items: rows.slice(0, limit).map(toExport),
    nextCursor: last ? encodeCursor(last.created_key, last.id) : null,
  };
}

/**
 * A ready export's bytes, part by part, each read in its own short transaction so a large file
 * never sits in memory. Not found for another tenant's export; a conflict until it is ready.
 */
export async function openAuditExportFile(
  reader: AuditReader,
  exportId: string,
): Promise<{ export: AuditExport; parts: AsyncGenerator<Uint8Array> }> {
  const found = await getAuditExport(reader, exportId);
  if (found.status !== "ready" || !found.manifest) {
    throw errors.conflict("EXPORT_NOT_READY", `The export is ${found.status}; its file is there once it is ready.`, {
      status: found.status,
    });
  }
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (let part = 1; ; part += 1) {
      const [row] = await withTenant(reader, async (tx) =>
        rowsOf<{ bytes: Uint8Array }>(
          await tx.execute(
            sql`select bytes from audit_export_parts where export_id = ${exportId}::uuid and part = ${part}`,
          ),
        ),
      );
      if (!row) return;
      yield new Uint8Array(row.bytes);
    }
  }
  return { export: found, parts: parts() };
}
