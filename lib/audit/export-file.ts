import { createHash } from "node:crypto";
import { type AuditExportFormat, csvTextCell } from "./contract";
import type { ExportRow } from "./export-rows";

/** An export's bytes leave in parts of about this size: one part in memory at a time. */
export const EXPORT_PART_BYTES = 1024 * 1024;

/**
 * JSON text as the database printed it (a jsonb column read as text): written as is, so the
 * biggest values of a row are neither parsed nor serialised again on their way to the file.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

// Numbers and booleans print as they are; everything else is text a spreadsheet must not run.
function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  return csvTextCell(
    value instanceof RawJson ? value.text : typeof value === "object" ? JSON.stringify(value) : String(value),
  );
}

const csvLine = (values: unknown[]) => `${values.map(csvField).join(",")}\r\n`;

const jsonValue = (value: unknown) =>
  value === null || value === undefined ? "null" : value instanceof RawJson ? value.text : JSON.stringify(value);

export interface ExportFileSummary {
  rowCount: number;
  byteSize: number;
  sha256: string;
}

/**
 * Serialises rows as they come (CSV with a header line and CRLF endings, or one JSON array with
 * a row per line), hashes the bytes as they are produced and hands them to `writePart` in parts
 * of exactly `partBytes` (the last one shorter), so memory holds about a part, or a batch of the
 * source's, whatever the row count, and the parts do not depend on how the rows came in.
 */
export class ExportFile {
  private readonly hash = createHash("sha256");
  /** `"column":` for each column, serialised once. */
  private readonly keys: string[];
  private pending: string[] = [];
  private pendingChars = 0;
  /** Bytes encoded already but short of a whole part. */
  private carry: Buffer = Buffer.alloc(0);
  private parts = 0;
  private rows = 0;
  private bytes = 0;

  constructor(
    private readonly format: AuditExportFormat,
    private readonly columns: readonly string[],
    private readonly writePart: (part: number, bytes: Buffer) => Promise<void>,
    private readonly partBytes = EXPORT_PART_BYTES,
  ) {
    this.keys = columns.map((c) => `${JSON.stringify(c)}:`);
    this.append(format === "csv" ? csvLine([...columns]) : "[");
  }

  async add(rows: readonly ExportRow[]): Promise<void> {
    for (const row of rows) {
      if (this.format === "csv") {
        this.append(csvLine(this.columns.map((c) => row[c])));
      } else {
        const fields = this.columns.map((c, i) => this.keys[i] + jsonValue(row[c]));
        this.append(`${this.rows === 0 ? "\n" : ",\n"}{${fields.join(",")}}`);
      }
      this.rows += 1;
      if (this.due()) await this.flush(false);
    }
  }

  /** Rows the source printed already, `count` of them, apart as the format sets rows apart. */
  async addPrinted(text: string, count: number): Promise<void> {
    if (count === 0) return;
    this.append(this.format === "csv" ? text : `${this.rows === 0 ? "\n" : ",\n"}${text}`);
    this.rows += count;
    if (this.due()) await this.flush(false);
  }

  /** Writes what is left (the last part may be short) and says what the file is. */
  async end(): Promise<ExportFileSummary> {
    if (this.format === "json") this.append("\n]\n");
    await this.flush(true);
    return { rowCount: this.rows, byteSize: this.bytes, sha256: this.hash.digest("hex") };
  }

  // Text gathers until a part's worth (counted in characters, never more than its bytes) and is
  // encoded and hashed once per part rather than once per row.
  private append(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
  }

  private due(): boolean {
    return this.carry.length + this.pendingChars >= this.partBytes;
  }

  /** Writes every whole part gathered; at the end, what is left as well. */
  private async flush(final: boolean): Promise<void> {
    const text = Buffer.from(this.pending.join(""), "utf8");
    const bytes = this.carry.length ? Buffer.concat([this.carry, text]) : text;
    this.pending = [];
    this.pendingChars = 0;
    this.hash.update(text);
    let offset = 0;
    while (bytes.length - offset >= this.partBytes || (final && offset < bytes.length)) {
      const part = bytes.subarray(offset, offset + this.partBytes);
      offset += part.length;
      this.bytes += part.length;
      this.parts += 1;
      await this.writePart(this.parts, part);
    }
    // A copy, so the rest of a large batch's bytes is not kept alive by this slice of them.
    this.carry = Buffer.from(bytes.subarray(offset));
  }
}
