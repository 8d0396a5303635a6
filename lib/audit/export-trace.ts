import { type SQL, sql } from "drizzle-orm";
import { rowsOf } from "@/lib/db";
import type { AuditExportFormat } from "./contract";
import type { ExportBounds, ExportSource } from "./export-rows";

// The trace is the export that reaches a million rows, so PostgreSQL writes its lines: a batch
// comes back as one text value instead of 28 values per row for the driver to parse into objects
// and this process to print again. The file reads as the row-by-row writer's would: RFC 4180
// quoting in CSV, JSON values in JSON.

/**
 * How a column prints. `plain`: numbers, booleans, uuids and hex hashes, which never need CSV
 * quoting and are JSON literals as PostgreSQL prints them (uuids and hashes are quoted in JSON).
 * `text`: free text, quoted where CSV needs it. `json`: JSON text, as is in JSON.
 */
type Print = "number" | "uuid" | "text" | "json";

// Each column's value, from the trace row `t` and the content row `c` (see below).
const TRACE_COLUMNS: readonly (readonly [string, Print, string])[] = [
  ["seq", "number", "t.seq"],
  ["id", "uuid", "t.id"],
  ["trace_id", "text", "t.trace_id"],
  ["run_id", "uuid", "t.run_id"],
  ["session_id", "text", "t.session_id"],
  ["request_id", "text", "t.request_id"],
  ["event_type", "text", "t.event_type"],
  ["node_name", "text", "t.node_name"],
  ["event_data", "json", "c.event_data"],
  ["event_duration_ms", "number", "t.event_duration_ms"],
  ["event_success", "number", "t.event_success"],
  ["event_error", "text", "t.event_error"],
  ["agent_id", "text", "t.agent_id"],
  ["agent_level", "text", "t.agent_level"],
  ["user_id", "text", "t.user_id"],
  ["actor_id", "text", "t.actor_id"],
  ["tokens_used", "number", "t.tokens_used"],
  ["cost_usd", "number", "t.cost_usd"],
  ["cache_hit", "number", "t.cache_hit"],
  ["data_classification", "text", "t.data_classification"],
  ["phi_accessed", "number", "t.phi_accessed"],
  ["phi_fields", "json", "c.phi_fields"],
  ["metadata", "json", "c.metadata"],
  ["event_timestamp", "text", `to_char(t.event_timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`],
  ["hash_version", "number", "t.hash_version"],
  ["prev_hash", "uuid", "t.prev_hash"],
  ["hash", "uuid", "t.hash"],
  ["content_withheld", "number", "c.withheld"],
];

export const TRACE_EXPORT_COLUMNS = TRACE_COLUMNS.map(([name]) => name);

// CSV: empty for null; quoted, quotes doubled, when the text holds a comma, a quote or a line
// break. Text a spreadsheet would read as a formula (it starts with =, +, -, @, a tab or a
// carriage return) gets a ' in front and is always quoted: csvTextCell's rule, in SQL.
const csvField = (print: Print, value: string): string =>
  print === "number" || print === "uuid"
    ? `coalesce((${value})::text, '')`
    : `coalesce(case when ${value} ~ E'^[-=+@\\t\\r]' then '"''' || replace(${value}, '"', '""') || '"'
        when ${value} ~ E'[",\\r\\n]' then '"' || replace(${value}, '"', '""') || '"' else ${value} end, '')`;

// JSON: `null` for null; strings escaped by PostgreSQL's own JSON output.
const jsonField = (print: Print, value: string): string =>
  print === "number"
    ? `coalesce((${value})::text, 'null')`
    : print === "json"
      ? `coalesce(${value}, 'null')`
      : `coalesce(to_json(${value})::text, 'null')`;

function lineOf(format: AuditExportFormat): string {
  if (format === "csv")
    return `${TRACE_COLUMNS.map(([, print, value]) => csvField(print, value)).join(" || ',' || ")} || E'\\r\\n'`;
  const fields = TRACE_COLUMNS.map(
    ([name, print, value]) => `'${JSON.stringify(name)}:' || ${jsonField(print, value)}`,
  );
  return `'{' || ${fields.join(" || ',' || ")} || '}'`;
}

const LINES: Record<AuditExportFormat, SQL> = { csv: sql.raw(lineOf("csv")), json: sql.raw(lineOf("json")) };
// Rows of one batch run together in CSV; in JSON they are the array's elements, one per line.
const SEPARATOR: Record<AuditExportFormat, string> = { csv: "", json: ",\n" };

/**
 * The chained trace in seq order, every design column plus the chain's own. A private
 * workflow's run keeps its content (event data and metadata) to its starter, as on the audit
 * pages: for anyone else those are null and `content_withheld` says so.
 */
export function traceSource(b: ExportBounds): ExportSource {
  const withheld = b.reader.privateWorkflows.length
    ? sql`coalesce((select r.workflow in (${sql.join(
        b.reader.privateWorkflows.map((w) => sql`${w}`),
        sql`, `,
      )}) and r.created_by <> ${b.reader.userId} from runs r where r.id = t.run_id), false)`
    : sql`false`;
  const range: SQL[] = [sql`t.seq <= ${b.headSeq}`, sql`t.event_timestamp <= ${new Date(b.to).toISOString()}`];
  if (b.from !== null) range.push(sql`t.event_timestamp >= ${new Date(b.from).toISOString()}`);
  return {
    columns: TRACE_EXPORT_COLUMNS,
    async next(tx, after, limit, format) {
      const [batch] = rowsOf<{ n: number; last_seq: number | null; last_hash: string | null; text: string | null }>(
        await tx.execute(sql`
          with page as (
            select t.seq, t.hash, ${LINES[format]} as line
            from execution_trace t
            -- The content columns once per row: "offset 0" keeps the planner from copying their
            -- expressions into every place the line uses them.
            cross join lateral (
              select w.withheld,
                case when w.withheld then null else t.event_data::text end as event_data,
                case when w.withheld then null else t.metadata::text end as metadata,
                to_json(t.phi_fields)::text as phi_fields
              from (select ${withheld} as withheld) w offset 0
            ) c
            where t.seq > ${after === null ? 0 : Number(after)} and ${sql.join(range, sql` and `)}
            order by t.seq limit ${limit}
          )
          select count(*)::int as n, max(seq)::float8 as last_seq,
            (select hash from page order by seq desc limit 1) as last_hash,
            string_agg(line, ${SEPARATOR[format]} order by seq) as text
          from page`),
      );
      if (!batch || batch.n === 0 || batch.last_seq === null) return { count: 0, last: null };
      return {
        count: batch.n,
        text: batch.text ?? "",
        last: String(batch.last_seq),
        chainHead: { seq: Number(batch.last_seq), hash: String(batch.last_hash) },
      };
    },
  };
}
