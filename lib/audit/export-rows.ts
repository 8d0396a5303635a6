import { type SQL, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import type { AuditExportFormat, AuditExportKind } from "./contract";
import { type DecisionRow, decisionsQuery, toAuditDecision } from "./decisions";
import { traceSource } from "./export-trace";
import type { AuditReader } from "./runs-list";

/** One row of an export, its values in the source's column order. */
export type ExportRow = Record<string, unknown>;

/** A batch of an export's rows, and the key to continue from. */
export interface ExportBatch {
  count: number;
  last: string | null;
  /** The rows as values, for the file to print… */
  rows?: ExportRow[];
  /** …or already printed in the export's format, rows apart as the format sets them apart. */
  text?: string;
  /** A trace batch: the chain's last row in it. */
  chainHead?: { seq: number; hash: string };
}

/** Where an export reads from: its columns, and its rows a batch at a time in a stable order. */
export interface ExportSource {
  columns: readonly string[];
  /** The rows after `after` (null: from the start), at most `limit`. */
  next(tx: Tx, after: string | null, limit: number, format: AuditExportFormat): Promise<ExportBatch>;
}

export interface ExportBounds {
  reader: AuditReader;
  /** Epoch ms, inclusive; `to` is never later than the export's start, so later writes stay out. */
  from: number | null;
  to: number;
  /** A trace export stops at the chain's head when it started. */
  headSeq: number;
}

const isoOfMs = (ms: unknown) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

// Keysets travel as JSON text so each source can keep the key its order needs.
const parseKey = <T>(after: string | null): T | null => (after === null ? null : (JSON.parse(after) as T));

const DECISION_COLUMNS = [
  "event_id",
  "event_type",
  "case_id",
  "adapter",
  "case_title",
  "outcome",
  "actor_kind",
  "actor_id",
  "actor_name",
  "actor_role",
  "principal_role",
  "notes",
  "modifications",
  "supersedes_event_id",
  "submitted_at",
  "decided_at",
  "latency_ms",
  "run_id",
] as const;

/** Every HITL decision as the decisions audit shows it, oldest first. */
function decisionsSource(b: ExportBounds): ExportSource {
  return {
    columns: DECISION_COLUMNS,
    async next(tx, after, limit) {
      const where: SQL[] = [sql`e.created_at_ms <= ${b.to}`];
      if (b.from !== null) where.push(sql`e.created_at_ms >= ${b.from}`);
      const key = parseKey<[number, string]>(after);
      if (key) {
        where.push(sql`(e.created_at_ms > ${key[0]} or (e.created_at_ms = ${key[0]} and e.event_id > ${key[1]}))`);
      }
      const found = rowsOf<DecisionRow>(
        await tx.execute(decisionsQuery(sql.join(where, sql` and `), sql`e.created_at_ms, e.event_id`, limit)),
      );
      const rows = found.map((r): ExportRow => {
        const d = toAuditDecision(r);
        return {
          event_id: d.eventId,
          event_type: d.type,
          case_id: d.caseId,
          adapter: d.adapter,
          case_title: d.title,
          outcome: d.outcome,
          actor_kind: d.actor.kind,
          actor_id: d.actor.id,
          actor_name: d.actor.name,
          actor_role: d.actor.role,
          principal_role: d.actor.principalRole,
          notes: d.notes,
          modifications: d.modifications,
          supersedes_event_id: d.supersedesEventId,
          submitted_at: d.submittedAt,
          decided_at: d.decidedAt,
          latency_ms: d.latencyMs,
          run_id: d.runId,
        };
      });
      const tail = found.at(-1);
      return { count: rows.length, rows, last: tail ? JSON.stringify([Number(tail.decided), tail.event_id]) : null };
    },
  };
}

const CASE_COLUMNS = [
  "case_id",
  "adapter",
  "case_type",
  "schema_version",
  "title",
  "summary",
  "priority",
  "confidence",
  "submitter_id",
  "submitter_name",
  "submitter_role",
  "created_at",
  "due_at",
  "status",
  "outcome",
  "decided_by",
  "decided_at",
  "clarification_rounds",
  "escalation_level",
  "payload_hash_sha256",
  "run_id",
] as const;

/**
 * Every HITL case, oldest first: its envelope and where it stands now. The payload stays out
 * (it can be large and is the adapter's business); its SHA-256 ties the row to it.
 */
function casesSource(b: ExportBounds): ExportSource {
  return {
    columns: CASE_COLUMNS,
    async next(tx, after, limit) {
      const where: SQL[] = [sql`c.created_at_ms <= ${b.to}`];
      if (b.from !== null) where.push(sql`c.created_at_ms >= ${b.from}`);
      const key = parseKey<[number, string]>(after);
      if (key) {
        where.push(sql`(c.created_at_ms > ${key[0]} or (c.created_at_ms = ${key[0]} and c.case_id > ${key[1]}))`);
      }
      const found = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`select c.case_id, c.adapter_id, c.case_type, c.schema_version, c.title, c.summary,
            c.priority, c.confidence, c.submitter_id, c.submitter_name, c.submitter_role,
            c.created_at_ms::float8 as created_ms, c.due_at_ms::float8 as due_ms, c.payload_hash_sha256,
            s.current_state, s.active_decision_outcome, s.decided_by, s.decided_at_ms::float8 as decided_ms,
            s.clarification_rounds, s.escalation_level,
            (select k.run_id from hitl_checkpoints k where k.case_id = c.case_id limit 1) as run_id
          from hitl_cases c left join hitl_state s on s.case_id = c.case_id
          where ${sql.join(where, sql` and `)}
          order by c.created_at_ms, c.case_id limit ${limit}`),
      );
      const rows = found.map(
        (c): ExportRow => ({
          case_id: c.case_id,
          adapter: c.adapter_id,
          case_type: c.case_type,
          schema_version: c.schema_version,
          title: c.title,
          summary: c.summary,
          priority: c.priority,
          confidence: c.confidence,
          submitter_id: c.submitter_id,
          submitter_name: c.submitter_name,
          submitter_role: c.submitter_role,
          created_at: isoOfMs(c.created_ms),
          due_at: isoOfMs(c.due_ms),
          status: c.current_state,
          outcome: c.active_decision_outcome,
          decided_by: c.decided_by,
          decided_at: isoOfMs(c.decided_ms),
          clarification_rounds: c.clarification_rounds,
          escalation_level: c.escalation_level,
          payload_hash_sha256: c.payload_hash_sha256,
          run_id: c.run_id,
        }),
      );
      const tail = found.at(-1);
      return { count: rows.length, rows, last: tail ? JSON.stringify([Number(tail.created_ms), tail.case_id]) : null };
    },
  };
}

export function exportSource(kind: AuditExportKind, bounds: ExportBounds): ExportSource {
  if (kind === "trace") return traceSource(bounds);
  if (kind === "decisions") return decisionsSource(bounds);
  return casesSource(bounds);
}
