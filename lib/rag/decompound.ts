import { type SQL, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "@/lib/db";
import { textArray } from "./bm25";
import { termPrefix } from "./language";

// German writes compounds as one word: "Strahlenschutzverordnung" is a Strahlenschutz-Verordnung,
// and a search for either part must find it (and the parts a search for the compound). The
// stemmer leaves compounds whole, so we split them ourselves — with no word list: a stem is cut
// into parts that are themselves stems the tenant's German documents use, joined by the linking
// elements German puts between parts (Aufsicht-s-behörde, Strahl-en-schutz). Parts are indexed
// as extra terms of the chunk that holds the compound; a query's compounds are split the same way.

const GERMAN = termPrefix("de");
/** Shorter parts would split ordinary words into chance syllables ("ver", "ein"). */
export const MIN_PART_LENGTH = 4;
/** Only stems at least two parts long can be compounds. */
const MIN_COMPOUND_LENGTH = 2 * MIN_PART_LENGTH;
/** Fugenelemente, longest first so "es" is tried before "s"; "" joins parts directly. */
const LINKING_ELEMENTS = ["es", "en", "er", "s", "n", ""];

/**
 * The fewest known parts `stem` splits into (at least two; the longest first part wins a tie),
 * or null when it does not split. `known` says whether a string is a stem of the vocabulary.
 */
export function splitCompound(stem: string, known: (part: string) => boolean): string[] | null {
  const memo = new Map<number, string[] | null>();
  // The fewest parts that spell stem[from..] (a single part allowed).
  const rest = (from: number): string[] | null => {
    const cached = memo.get(from);
    if (cached !== undefined) return cached;
    let best: string[] | null = null;
    for (let to = stem.length; to >= from + MIN_PART_LENGTH; to--) {
      const part = stem.slice(from, to);
      if (!known(part)) continue;
      if (to === stem.length) {
        if (from > 0) best = [part]; // the whole stem as one part is no split
        if (best) break;
        continue;
      }
      for (const link of LINKING_ELEMENTS) {
        if (!stem.startsWith(link, to)) continue;
        const tail = to + link.length;
        if (stem.length - tail < MIN_PART_LENGTH) continue;
        const parts = rest(tail);
        if (parts && (!best || parts.length + 1 < best.length)) best = [part, ...parts];
      }
    }
    memo.set(from, best);
    return best;
  };
  const parts = rest(0);
  return parts && parts.length >= 2 ? parts : null;
}

/** Every part of a compound, the parts of its parts included (Strahlenschutz → Strahl, Schutz). */
export function compoundParts(stem: string, known: (part: string) => boolean): string[] {
  if (stem.length < MIN_COMPOUND_LENGTH) return [];
  const out = new Set<string>();
  const visit = (word: string) => {
    const parts = splitCompound(word, known);
    if (!parts) return;
    for (const part of parts) {
      if (out.has(part)) continue;
      out.add(part);
      if (part.length >= MIN_COMPOUND_LENGTH) visit(part);
    }
  };
  visit(stem);
  out.delete(stem);
  return [...out];
}

/** Substrings of the stems that could be parts: what the vocabulary is asked about. */
function candidateParts(stems: string[]): string[] {
  const out = new Set<string>();
  for (const stem of stems) {
    if (stem.length < MIN_COMPOUND_LENGTH) continue;
    for (let from = 0; from + MIN_PART_LENGTH <= stem.length; from++) {
      for (let to = from + MIN_PART_LENGTH; to <= stem.length; to++) out.add(stem.slice(from, to));
    }
  }
  return [...out];
}

/**
 * The parts of a query's German compounds that the tenant's German documents use, as German
 * terms: the query "Strahlenschutzverordnung" also asks for "Strahlenschutz" and "Verordnung".
 */
export async function queryCompoundTerms(tx: Tx, tenantId: string, query: string): Promise<string[]> {
  // No word long enough to be a compound: spare the round trips.
  if (!query.split(/[^\p{L}]+/u).some((word) => word.length >= MIN_COMPOUND_LENGTH)) return [];
  const stems = rowsOf<{ lexeme: string }>(
    await tx.execute(sql`select l.lexeme from unnest(to_tsvector('german', ${query})) l`),
  ).map((r) => r.lexeme);
  const candidates = candidateParts(stems);
  if (candidates.length === 0) return [];
  const rows = rowsOf<{ term: string }>(
    await tx.execute(sql`
      select t.term from knowledge_terms t
      where t.tenant_id = ${tenantId} and t.term = any(${textArray(candidates.map((c) => GERMAN + c))})`),
  );
  const vocabulary = new Set(rows.map((r) => r.term.slice(GERMAN.length)));
  const known = (part: string) => vocabulary.has(part);
  return [...new Set(stems.flatMap((stem) => compoundParts(stem, known)))].map((part) => GERMAN + part);
}

/**
 * Adds the parts of the compounds in a German document's chunks (those of `chunkFilter`) as
 * postings: a part's tf in a chunk grows by the compound's tf, and a chunk that did not have
 * the part gains a posting and counts towards its df. Chunk lengths stay as they are — the
 * parts are another reading of words already counted, not more words.
 */
export async function indexCompoundParts(tx: Tx, tenantId: string, documentId: string, inRange: SQL): Promise<void> {
  const own = rowsOf<{ term: string }>(
    await tx.execute(sql`
      select distinct p.term from knowledge_postings p
      join knowledge_chunks c on c.id = p.chunk_id
      where p.document_id = ${documentId} and left(p.term, ${GERMAN.length}) = ${GERMAN}
        and length(p.term) >= ${GERMAN.length + MIN_COMPOUND_LENGTH} ${inRange}`),
  ).map((r) => r.term.slice(GERMAN.length));
  if (own.length === 0) return;
  const vocabulary = new Set(
    rowsOf<{ term: string }>(
      await tx.execute(sql`
        select t.term from knowledge_terms t
        where t.tenant_id = ${tenantId} and left(t.term, ${GERMAN.length}) = ${GERMAN}`),
    ).map((r) => r.term.slice(GERMAN.length)),
  );
  const known = (part: string) => vocabulary.has(part);
  const compounds: string[] = [];
  const parts: string[] = [];
  for (const stem of own) {
    for (const part of compoundParts(stem, known)) {
      compounds.push(GERMAN + stem);
      parts.push(GERMAN + part);
    }
  }
  if (compounds.length === 0) return;
  await tx.execute(sql`
    with split as (
      select * from unnest(${textArray(compounds)}, ${textArray(parts)}) as s(compound, part)
    ),
    added as (
      select p.chunk_id, s.part as term, sum(p.tf)::int as tf, max(p.len) as len, max(p.domain_mask) as domain_mask
      from knowledge_postings p
      join knowledge_chunks c on c.id = p.chunk_id
      join split s on s.compound = p.term
      where p.tenant_id = ${tenantId} and p.document_id = ${documentId} ${inRange}
      group by p.chunk_id, s.part
    ),
    grown as (
      update knowledge_postings k set tf = k.tf + added.tf
      from added
      where k.tenant_id = ${tenantId} and k.term = added.term and k.chunk_id = added.chunk_id
      returning k.term, k.chunk_id
    ),
    posted as (
      insert into knowledge_postings (tenant_id, term, chunk_id, document_id, tf, len, domain_mask)
      select ${tenantId}, added.term, added.chunk_id, ${documentId}, added.tf, added.len, added.domain_mask
      from added
      where not exists (select 1 from grown g where g.term = added.term and g.chunk_id = added.chunk_id)
      returning term
    )
    insert into knowledge_terms (tenant_id, term, df)
    select ${tenantId}, term, count(*) from posted group by term
    on conflict (tenant_id, term) do update set df = knowledge_terms.df + excluded.df`);
}
