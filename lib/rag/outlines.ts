import { and, asc, desc, inArray, sql } from "drizzle-orm";
import { schema, type TenantScope, withTenant } from "@/lib/db";
import { SECTION_SEPARATOR } from "./blocks";
import { textArray } from "./bm25";
import { documentReady } from "./staging";

const documents = schema.knowledgeDocuments;
const chunks = schema.knowledgeChunks;

/** A document as a table of contents: its title and its top-level sections in reading order. */
export interface DocumentOutline {
  title: string;
  sections: string[];
}

/**
 * The outlines of the tenant's newest ready documents in any of `domains` (what an agent
 * searches), newest first. Only the first heading level below the title counts as a section.
 */
export async function documentOutlines(
  scope: TenantScope,
  domains: string[],
  limit: number,
): Promise<DocumentOutline[]> {
  if (domains.length === 0 || limit < 1) return [];
  return withTenant(scope, async (tx) => {
    const docs = await tx
      .select({ id: documents.id, title: documents.title })
      .from(documents)
      .where(and(sql`${documents.domains} && ${textArray(domains)}`, documentReady()))
      .orderBy(desc(documents.createdAt), asc(documents.title), asc(documents.id))
      .limit(limit);
    if (docs.length === 0) return [];
    const rows = await tx
      .select({ documentId: chunks.documentId, section: chunks.section })
      .from(chunks)
      .where(
        inArray(
          chunks.documentId,
          docs.map((d) => d.id),
        ),
      )
      .orderBy(asc(chunks.documentId), asc(chunks.ord));
    const sections = new Map<string, string[]>(docs.map((d) => [d.id, []]));
    for (const row of rows) {
      const top = row.section?.split(SECTION_SEPARATOR)[0]?.trim();
      const list = sections.get(row.documentId);
      if (top && list && !list.includes(top)) list.push(top);
    }
    return docs.map((d) => ({ title: d.title, sections: sections.get(d.id) ?? [] }));
  });
}
