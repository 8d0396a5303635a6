import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import { spelledOut } from "@/lib/engine";

/**
 * An acronym the knowledge base never writes ("SBOM") finds nothing by its letters, although a
 * document spells it out ("software bill of materials"). When a search finds nothing, each
 * acronym of the query is looked for by its initials in the scope's chunks, and the query is
 * searched again with the expansions added. Only then: it reads chunk text, not the index.
 */

/** Two to eight capitals, optionally a plural "s". */
const ACRONYM = /\b(\p{Lu}{2,8})s?\b/gu;
/** Chunks read per acronym: the first spelling found is used. */
const LOOKUP_ROWS = 20;

/** The query with each acronym's spelling in the knowledge base appended; null when none is found. */
export async function expandAcronyms(
  tx: Tx,
  tenantId: string,
  query: string,
  domains: string[] | undefined,
): Promise<string | null> {
  const acronyms = [...new Set([...query.matchAll(ACRONYM)].map((m) => m[1].toLowerCase()))];
  const expansions: string[] = [];
  for (const letters of acronyms) {
    const rows = rowsOf<{ text: string }>(
      await tx.execute(sql`
        select c.text from knowledge_chunks c
        join knowledge_documents d on d.id = c.document_id
        where c.tenant_id = ${tenantId} and c.text ~* ${initialsPattern(letters)}
          ${
            domains?.length
              ? sql`and d.domains && array[${sql.join(
                  domains.map((name) => sql`${name}`),
                  sql`, `,
                )}]::text[]`
              : sql``
          }
        limit ${LOOKUP_ROWS}`),
    );
    for (const { text } of rows) {
      const expansion = spelledOut(letters, text);
      if (expansion) {
        expansions.push(expansion);
        break;
      }
    }
  }
  return expansions.length > 0 ? `${query} ${expansions.join(" ")}` : null;
}

/**
 * A PostgreSQL regular expression for words starting with the letters in order, one other word
 * allowed between two of them ("bill of materials"); spelledOut then checks the run.
 */
function initialsPattern(letters: string): string {
  return `\\m${[...letters].map((l) => `${l}[[:alnum:]-]*`).join("(?:\\s+[[:alnum:]-]+)?\\s+")}`;
}
