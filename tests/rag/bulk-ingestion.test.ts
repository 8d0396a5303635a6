import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf, schema, setActiveDatabase, withTenant } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { ingestDocument, ingestDocuments, MAX_DOMAINS_PER_TENANT, searchKnowledge } from "@/lib/rag";
import type { DocumentInput, IngestResult } from "@/lib/rag/contract";
import { type TestDatabase, testTargets } from "../support/databases";
import { minimalPdf } from "./pdf";
import { countRows, newTenant, statisticsDrift } from "./support";

// Many documents at once (`ingestDocuments`, set-based writes, many documents a transaction)
// store exactly what the same documents added one by one store: the same documents, chunks,
// postings, document frequencies, domain bits and totals, so the same search results. Content
// is stored once per tenant (within a batch and against what is there), every row is the
// tenant's own, and a batch that fails leaves nothing half-written.

const by = { createdBy: "test", embeddings: null };

/** Markdown with `sections` sections, each a chunk of its own, in a made-up vocabulary. */
function generated(n: number, sections: number): string {
  const words = ["quorvax", "plindel", "zambrof", "tessimor", "kavrillo", "druvenne", "solbrik", "yennapor"];
  const word = (i: number) => `${words[i % words.length]}${(i * 7 + n) % 13}`;
  const parts = [`# Procedure ${n}`];
  for (let s = 0; s < sections; s++) {
    const body = Array.from({ length: 12 + ((n + s) % 7) }, (_, i) => word(n * 31 + s * 5 + i)).join(" ");
    parts.push(`## Step ${s + 1}\n\n${body}.`);
  }
  return parts.join("\n\n");
}

/** A mix of formats, languages and domains, with one content twice and one document too large for one slice. */
function inputs(): DocumentInput[] {
  const out: DocumentInput[] = [
    {
      title: "Zuständigkeiten",
      format: "text",
      content:
        "Der Strahlenschutz im Betrieb obliegt dem Strahlenschutzbeauftragten. Jede Verordnung des Bundes gilt unmittelbar; die Behörde des Landes überwacht die Aufsicht vor Ort.",
      domains: ["strahlenschutz"],
    },
    {
      format: "markdown",
      content: "# Pump manual\n\nGeneral notes.\n\n## Alarms\n\nAn occlusion alarm sounds when the line is blocked.",
      domains: ["Quality", "devices"],
      externalId: " SOP-7 ",
      evidenceLevel: "2B",
      dataClassification: "confidential",
    },
    {
      title: "Grenzwerte",
      format: "text",
      content:
        "Die Strahlenschutzverordnung legt Grenzwerte für beruflich exponierte Personen fest. Die zuständige Aufsichtsbehörde kann Ausnahmen zulassen.",
      domains: ["strahlenschutz", "quality"],
    },
    {
      title: "Stérilisation",
      format: "text",
      content:
        "La stérilisation des instruments chirurgicaux se fait à l'autoclave à cent trente-quatre degrés pendant dix-huit minutes.",
      domains: ["hygiene"],
    },
    {
      format: "html",
      content:
        "<html><head><title>Sterilisation</title></head><body><h2>Autoclave</h2><p>Run cycles at 134 degrees.</p></body></html>",
      domains: ["hygiene"],
      language: "en",
    },
    {
      format: "pdf",
      content: minimalPdf(
        [["Validation protocol for the filling line."], ["Acceptance criteria: fill volume within two percent."]],
        "Filling line",
      ),
      domains: ["quality"],
      fileName: "filling.pdf",
    },
    // The pump manual again, laid out differently: the same content, stored once.
    {
      format: "markdown",
      content:
        "# Pump manual\r\n\r\nGeneral notes.   \r\n\r\n## Alarms\r\n\r\nAn occlusion alarm sounds when the line is blocked.",
      domains: ["cyber"],
      externalId: "SOP-7-copy",
    },
    { format: "markdown", content: generated(999, 24), domains: ["devices"], externalId: "large" },
  ];
  for (let n = 0; n < 30; n++) {
    out.push({ format: "markdown", content: generated(n, 9), domains: [`line-${n % 4}`], externalId: `gen-${n}` });
  }
  return out;
}

type Row = Record<string, unknown>;

/** Everything ingestion stores for a tenant, without the ids and times that differ between two loads. */
async function stored(database: Database, tenantId: string) {
  const rows = (query: ReturnType<typeof sql>) => database.db.execute(query).then((r) => rowsOf<Row>(r));
  return {
    documents: await rows(sql`
      select title, format, language, domains, external_id, content_hash, byte_size, chunk_count,
        data_classification, evidence_level, created_by
      from knowledge_documents where tenant_id = ${tenantId} order by content_hash`),
    chunks: await rows(sql`
      select d.content_hash, c.ord, c.section, c.page, c.text, c.token_count, c.char_length
      from knowledge_chunks c join knowledge_documents d on d.id = c.document_id
      where c.tenant_id = ${tenantId} order by d.content_hash, c.ord`),
    postings: await rows(sql`
      select d.content_hash, c.ord, p.term, p.tf, p.len, p.domain_mask::text as domain_mask,
        p.document_id = c.document_id as same_document
      from knowledge_postings p
      join knowledge_chunks c on c.id = p.chunk_id
      join knowledge_documents d on d.id = p.document_id
      where p.tenant_id = ${tenantId} order by d.content_hash, c.ord, p.term`),
    terms: await rows(sql`select term, df from knowledge_terms where tenant_id = ${tenantId} order by term`),
    domains: await rows(sql`select name, bit from knowledge_domains where tenant_id = ${tenantId} order by name`),
    stats: await rows(sql`
      select chunk_count::text as chunk_count, total_length::text as total_length
      from knowledge_stats where tenant_id = ${tenantId}`),
  };
}

/** A result without what differs between two loads (ids, creation times). */
function comparable({ document, created }: IngestResult) {
  const { id: _id, createdAt: _createdAt, ...rest } = document;
  return { ...rest, created };
}

const QUERIES = [
  "Strahlenschutz Verordnung",
  "Aufsichtsbehörde",
  "occlusion alarm",
  "stérilisation autoclave",
  "acceptance criteria fill volume",
];

async function searches(tenantId: string) {
  const out: unknown[] = [];
  for (const query of QUERIES) {
    const { items } = await searchKnowledge({ tenantId }, { query, k: 8 }, { embeddings: null });
    // Passages of equal score come in chunk id order, and ids differ between the two loads. A
    // score is a sum of floats whose order follows the rows' physical order: the last bits differ.
    const hits = items.map((h) => ({
      title: h.title,
      externalId: h.externalId,
      section: h.section,
      score: Number(h.score.toPrecision(12)),
    }));
    out.push(
      hits.sort((a, b) => b.score - a.score || `${a.title}${a.section}`.localeCompare(`${b.title}${b.section}`)),
    );
  }
  return out;
}

for (const target of testTargets()) {
  describe(`bulk ingestion on ${target.name}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await target.open();
      setActiveDatabase(database);
    });
    afterAll(async () => {
      setActiveDatabase(undefined);
      await database?.close();
    });

    it("stores what ingesting the same documents one by one stores, and searches alike", async () => {
      const oneByOne = await newTenant(database, "one-by-one");
      const together = await newTenant(database, "together");
      const singles: IngestResult[] = [];
      for (const input of inputs()) singles.push(await ingestDocument({ tenantId: oneByOne }, input, by));
      const progress: number[] = [];
      const bulk = await ingestDocuments({ tenantId: together }, inputs(), {
        ...by,
        onProgress: (p) => {
          if (p.phase === "indexing") progress.push(p.chunksDone);
        },
      });

      expect(bulk.map(comparable)).toEqual(singles.map(comparable));
      const expected = await stored(database, oneByOne);
      expect(expected.documents).toHaveLength(inputs().length - 1);
      expect(expected.postings.every((p) => p.same_document === true)).toBe(true);
      expect(await stored(database, together)).toEqual(expected);
      expect(await statisticsDrift(database, together)).toEqual(await statisticsDrift(database, oneByOne));
      expect((await statisticsDrift(database, together)).wrongDf).toBe(0);

      // German compounds split alike: the compound is found by its parts in both.
      const hits = await searches(together);
      expect((hits[0] as { title: string }[]).map((h) => h.title)).toContain("Grenzwerte");
      expect(hits).toEqual(await searches(oneByOne));

      // Progress counts up to every input's chunks.
      const total = bulk.reduce(
        (n, r, i) => n + (r.created ? r.document.chunkCount : singles[i].document.chunkCount),
        0,
      );
      expect(progress[0]).toBe(0);
      expect(progress.at(-1)).toBe(total);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    });

    it("stores the same content once: twice in a batch, or already stored", async () => {
      const tenantId = await newTenant(database, "dedup");
      const [pump, copy, other] = await ingestDocuments({ tenantId }, [inputs()[1], inputs()[6], inputs()[3]], by);
      expect([pump.created, copy.created, other.created]).toEqual([true, false, true]);
      expect(copy.document).toEqual(pump.document);
      expect(pump.document).toMatchObject({ externalId: "SOP-7", domains: ["quality", "devices"] });
      const before = await stored(database, tenantId);

      const again = await ingestDocuments({ tenantId }, [inputs()[3], inputs()[0], inputs()[6]], by);
      expect(again.map((r) => r.created)).toEqual([false, true, false]);
      expect(again[0].document).toEqual(other.document);
      expect(again[2].document).toEqual(pump.document);
      const after = await stored(database, tenantId);
      expect(after.documents).toHaveLength(before.documents.length + 1);
      expect(after.chunks.filter((c) => c.content_hash !== again[1].document.contentHash)).toEqual(before.chunks);
    });

    it("writes every row as the tenant's own and sees no other tenant's content", async () => {
      const first = await newTenant(database, "scope-a");
      const second = await newTenant(database, "scope-b");
      // Fresh inputs for each call: a PDF's bytes move to the extraction worker.
      const docs = () => inputs().slice(0, 6);
      await ingestDocuments({ tenantId: first }, docs(), by);
      const before = await stored(database, first);
      const results = await ingestDocuments({ tenantId: second }, docs(), by);
      // The same content in another tenant is not a duplicate.
      expect(results.every((r) => r.created)).toBe(true);
      expect(await stored(database, first)).toEqual(before);
      expect(await stored(database, second)).toEqual(before);
      // Every chunk and posting of the second tenant's documents is the second tenant's row.
      const [misfiled] = rowsOf<{ chunks: number; postings: number }>(
        await database.db.execute(sql`
          select
            (select count(*)::int from knowledge_chunks c join knowledge_documents d on d.id = c.document_id
              where d.tenant_id = ${second} and c.tenant_id <> ${second}) as chunks,
            (select count(*)::int from knowledge_postings p join knowledge_documents d on d.id = p.document_id
              where d.tenant_id = ${second} and p.tenant_id <> ${second}) as postings`),
      );
      expect(misfiled).toEqual({ chunks: 0, postings: 0 });
      expect(await countRows(database, "knowledge_postings", second)).toBe(
        await countRows(database, "knowledge_postings", first),
      );
      // Row-level security: the second tenant reads its documents and none of the first's.
      const seen = await withTenant({ tenantId: second }, (tx) =>
        tx
          .select({ id: schema.knowledgeDocuments.id, tenantId: schema.knowledgeDocuments.tenantId })
          .from(schema.knowledgeDocuments),
      );
      expect(seen.map((d) => d.id).sort()).toEqual(results.map((r) => r.document.id).sort());
      expect(seen.every((d) => d.tenantId === second)).toBe(true);
    });

    it("writes nothing of a batch when a document in it is unreadable", async () => {
      const tenantId = await newTenant(database, "unreadable");
      const docs = [...inputs().slice(0, 3), { format: "text" as const, content: "   \n  ", domains: ["quality"] }];
      await expect(ingestDocuments({ tenantId }, docs, by)).rejects.toMatchObject({ code: "EMPTY_DOCUMENT" });
      const badDomain = [...inputs().slice(0, 3), { ...inputs()[3], domains: ["Not a domain!"] }];
      await expect(ingestDocuments({ tenantId }, badDomain, by)).rejects.toBeInstanceOf(DomainError);
      for (const table of ["knowledge_documents", "knowledge_chunks", "knowledge_postings", "knowledge_terms"]) {
        expect(await countRows(database, table, tenantId), table).toBe(0);
      }
    });

    it("rolls the whole batch back when writing one of its documents fails", async () => {
      const tenantId = await newTenant(database, "rollback");
      await ingestDocuments({ tenantId }, [inputs()[3]], by);
      const before = await stored(database, tenantId);
      // Each document brings 16 new domains: the fourth passes the tenant's limit. One by one,
      // the first three would stay; in one batch, none of them does.
      const docs = Array.from({ length: 4 }, (_, d) => ({
        format: "text" as const,
        content: `Document ${d} of the batch that cannot be stored whole: calibration records and audit notes.`,
        domains: Array.from({ length: 16 }, (_, i) => `d${d}-${i}`),
      }));
      expect(4 * 16 + 1).toBeGreaterThan(MAX_DOMAINS_PER_TENANT);
      await expect(ingestDocuments({ tenantId }, docs, by)).rejects.toMatchObject({ code: "TOO_MANY_DOMAINS" });
      expect(await stored(database, tenantId)).toEqual(before);
      // The batch without the document that fails is stored whole.
      const fitting = await ingestDocuments({ tenantId }, docs.slice(0, 3), by);
      expect(fitting.every((r) => r.created)).toBe(true);
      expect((await stored(database, tenantId)).documents).toHaveLength(4);
      expect((await statisticsDrift(database, tenantId)).wrongDf).toBe(0);
    });
  });
}
