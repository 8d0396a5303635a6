import { and, asc, eq, gt, sql } from "drizzle-orm";
import { rowsOf, schema, type TenantScope, type Tx, withTenant } from "@/lib/db";
import { errors, NotFoundError } from "@/lib/errors";
import { CHUNK_PAGE_DEFAULT, CHUNK_PAGE_MAX, type ChunkPage, type DocumentOverview } from "./contract";
import { toDocument } from "./documents";

// What the document viewer reads: a document's outline, then its chunks a page at a time (a
// large PDF has thousands of chunks, far too many for one answer or one render).

const documents = schema.knowledgeDocuments;
const chunks = schema.knowledgeChunks;

const notFound = (id: string) => new NotFoundError("Knowledge document", { document_id: id });

async function requireDocument(tx: Tx, id: string) {
  const [row] = await tx.select().from(documents).where(eq(documents.id, id));
  if (!row) throw notFound(id);
  return row;
}

/**
 * The document with its outline: consecutive chunks under the same heading path form one
 * section (a heading that comes back later starts a new one, as it does in the text).
 */
export async function documentOverview(scope: TenantScope, id: string): Promise<DocumentOverview> {
  return withTenant(scope, async (tx) => {
    const row = await requireDocument(tx, id);
    const sections = rowsOf<{
      section: string | null;
      first_ord: number;
      last_ord: number;
      chunk_count: number;
      first_page: number | null;
      last_page: number | null;
    }>(
      await tx.execute(sql`
        select section, min(ord)::int as first_ord, max(ord)::int as last_ord, count(*)::int as chunk_count,
               min(page)::int as first_page, max(page)::int as last_page
        from (
          select section, ord, page,
                 row_number() over (order by ord) - row_number() over (partition by section order by ord) as run
          from knowledge_chunks where document_id = ${id}
        ) runs
        group by section, run
        order by first_ord`),
    );
    const lastPages = sections.map((s) => s.last_page).filter((p): p is number => p !== null);
    return {
      document: toDocument(row),
      pageCount: lastPages.length > 0 ? Math.max(...lastPages) : null,
      sections: sections.map((s) => ({
        section: s.section,
        firstOrd: s.first_ord,
        lastOrd: s.last_ord,
        chunkCount: s.chunk_count,
        firstPage: s.first_page,
        lastPage: s.last_page,
      })),
    };
  });
}

/** The cursor is the `ord` of the last chunk handed out: a decimal, nothing else. */
function decodeChunkCursor(cursor: string): number {
  const ord = /^\d{1,9}$/.test(cursor) ? Number(cursor) : Number.NaN;
  if (!Number.isSafeInteger(ord)) throw errors.invalidField("cursor", "The cursor is not one this list handed out.");
  return ord;
}

/** A document's chunks in order, after `cursor`; 404 for a document the tenant does not have. */
export async function listDocumentChunks(
  scope: TenantScope,
  id: string,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<ChunkPage> {
  const requested = Number.isFinite(options.limit) ? Math.trunc(options.limit as number) : CHUNK_PAGE_DEFAULT;
  const limit = Math.min(Math.max(requested, 1), CHUNK_PAGE_MAX);
  const after = options.cursor ? decodeChunkCursor(options.cursor) : null;
  return withTenant(scope, async (tx) => {
    await requireDocument(tx, id);
    const rows = await tx
      .select({
        id: chunks.id,
        ord: chunks.ord,
        section: chunks.section,
        page: chunks.page,
        text: chunks.text,
        tokenCount: chunks.tokenCount,
      })
      .from(chunks)
      .where(and(eq(chunks.documentId, id), after === null ? undefined : gt(chunks.ord, after)))
      .orderBy(asc(chunks.ord))
      .limit(limit + 1);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return { items, nextCursor: rows.length > limit && last ? String(last.ord) : null };
  });
}
