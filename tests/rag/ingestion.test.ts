import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf, withTenant } from "@/lib/db";
import { KNOWLEDGE_CORPUS, seedKnowledgeCorpus } from "@/lib/demo";
import {
  deleteDocument,
  getDocument,
  ingestDocument,
  MAX_DOMAINS_PER_TENANT,
  searchKnowledge,
  searchScopeOf,
} from "@/lib/rag";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { minimalPdf } from "./pdf";
import { countRows, ingestMarkdown, knowledgeCounts, newTenant, statisticsDrift } from "./support";

const by = { createdBy: "test", embeddings: null };

for (const target of appTargets()) {
  describe(`knowledge ingestion on ${target.name}`, () => {
    const suite = seededDatabase(target);

    it("seeds the demo corpus into demo and a small one into acme, and seeding again adds nothing", async () => {
      const { demo, acme } = suite.tenants;
      expect(await countRows(suite.database, "knowledge_documents", demo)).toBe(KNOWLEDGE_CORPUS.demo.length);
      expect(await countRows(suite.database, "knowledge_documents", acme)).toBe(KNOWLEDGE_CORPUS.acme.length);
      const before = await knowledgeCounts(suite.database);
      expect(await seedKnowledgeCorpus(suite.database, { embeddings: null })).toEqual({ created: 0 });
      expect(await knowledgeCounts(suite.database)).toEqual(before);
    });

    it("ingests Markdown with its sections and finds it by them", async () => {
      const tenantId = await newTenant(suite.database, "md");
      const { document, created } = await ingestMarkdown(
        tenantId,
        "# Pump manual\n\nGeneral notes.\n\n## Alarms\n\nAn occlusion alarm sounds when the line is blocked.\n\n### Silencing\n\nPress and hold the mute key for two seconds.",
        ["quality"],
        { externalId: "SOP-7" },
      );
      expect(created).toBe(true);
      expect(document).toMatchObject({
        title: "Pump manual",
        format: "markdown",
        domains: ["quality"],
        externalId: "SOP-7",
      });
      const { chunks } = await getDocument({ tenantId }, document.id);
      expect(chunks.map((c) => c.section)).toEqual([null, "Alarms", "Alarms › Silencing"]);
      expect(document.chunkCount).toBe(3);
      const { items } = await searchKnowledge(
        { tenantId },
        { query: "how do I silence the alarm?" },
        { embeddings: null },
      );
      expect(items[0]).toMatchObject({
        section: "Alarms › Silencing",
        title: "Pump manual",
        externalId: "SOP-7",
        page: null,
      });
    });

    it("ingests plain text, HTML and a real PDF", async () => {
      const tenantId = await newTenant(suite.database, "formats");
      const text = await ingestDocument(
        { tenantId },
        {
          format: "text",
          content: "Calibration log.\n\nThe scale was calibrated on Monday.",
          domains: ["quality"],
          title: "Log",
        },
        by,
      );
      expect(text.document).toMatchObject({ title: "Log", format: "text", chunkCount: 1 });
      const html = await ingestDocument(
        { tenantId },
        {
          format: "html",
          content:
            "<html><head><title>Sterilisation</title></head><body><h2>Autoclave</h2><p>Run cycles at 134 degrees.</p></body></html>",
          domains: ["quality"],
        },
        by,
      );
      expect(html.document.title).toBe("Sterilisation");
      const pdf = await ingestDocument(
        { tenantId },
        {
          format: "pdf",
          content: minimalPdf(
            [["Validation protocol for the filling line."], ["Acceptance criteria: fill volume within two percent."]],
            "Filling line",
          ),
          domains: ["quality"],
          fileName: "filling.pdf",
        },
        by,
      );
      expect(pdf.document).toMatchObject({ title: "Filling line", format: "pdf", chunkCount: 2 });
      const hits = async (query: string) =>
        (await searchKnowledge({ tenantId }, { query, k: 1 }, { embeddings: null })).items[0];
      expect(await hits("acceptance criteria fill volume")).toMatchObject({ title: "Filling line", page: 2 });
      expect(await hits("autoclave temperature cycles")).toMatchObject({
        title: "Sterilisation",
        section: "Autoclave",
      });
      expect(await hits("when was the scale calibrated")).toMatchObject({ title: "Log", section: null, page: null });
    });

    it("treats the same content uploaded again as a no-op that returns the existing document", async () => {
      const tenantId = await newTenant(suite.database, "dupe");
      const first = await ingestMarkdown(tenantId, "# Note\n\nThe same words.\n", ["quality"]);
      const before = await knowledgeCounts(suite.database);
      const again = await ingestDocument(
        { tenantId },
        {
          format: "markdown",
          content: "# Note\r\n\r\nThe same words.   \r\n",
          domains: ["cyber"],
          title: "Other title",
        },
        by,
      );
      expect(again.created).toBe(false);
      expect(again.document).toEqual(first.document);
      expect(await knowledgeCounts(suite.database)).toEqual(before);
      // Content is per tenant: another tenant may hold the same text.
      const elsewhere = await ingestMarkdown(await newTenant(suite.database, "dupe2"), "# Note\n\nThe same words.\n", [
        "quality",
      ]);
      expect(elsewhere.created).toBe(true);
    });

    it("keeps document frequencies and collection statistics exact through ingestion and deletion", async () => {
      const tenantId = await newTenant(suite.database, "stats");
      const docs = KNOWLEDGE_CORPUS.demo.slice(0, 6);
      const ids: string[] = [];
      for (const doc of docs) ids.push((await ingestMarkdown(tenantId, doc.markdown, doc.domains)).document.id);
      expect(await statisticsDrift(suite.database, tenantId)).toMatchObject({ wrongDf: 0 });
      await deleteDocument({ tenantId }, ids[1]);
      await deleteDocument({ tenantId }, ids[4]);
      const drift = await statisticsDrift(suite.database, tenantId);
      expect(drift.wrongDf).toBe(0);
      expect(drift.stats.kept_n).toBe(drift.stats.true_n);
      expect(drift.stats.kept_len).toBe(drift.stats.true_len);
      expect(await countRows(suite.database, "knowledge_postings", tenantId)).toBeGreaterThan(0);

      // Scores after the deletions equal those of a collection that never had the two documents.
      const fresh = await newTenant(suite.database, "stats-fresh");
      for (const [i, doc] of docs.entries())
        if (i !== 1 && i !== 4) await ingestMarkdown(fresh, doc.markdown, doc.domains);
      for (const query of ["premarket approval review", "substantial equivalence", "surrogate endpoint"]) {
        const a = (await searchKnowledge({ tenantId }, { query, k: 5 }, { embeddings: null })).items;
        const b = (await searchKnowledge({ tenantId: fresh }, { query, k: 5 }, { embeddings: null })).items;
        expect(a.map((h) => [h.title, h.section, h.score.toFixed(9)])).toEqual(
          b.map((h) => [h.title, h.section, h.score.toFixed(9)]),
        );
      }

      // Deleting everything leaves empty statistics, not negative ones.
      for (const id of [ids[0], ids[2], ids[3], ids[5]]) await deleteDocument({ tenantId }, id);
      expect(await statisticsDrift(suite.database, tenantId)).toEqual({
        wrongDf: 0,
        stats: { kept_n: 0, kept_len: 0, true_n: 0, true_len: 0 },
      });
      expect(await countRows(suite.database, "knowledge_terms", tenantId)).toBe(0);
    });

    it("searches only the requested domains, and an agent's scope includes the user guide for product questions", async () => {
      const scope = { tenantId: suite.tenants.demo };
      const domainsOf = new Map(KNOWLEDGE_CORPUS.demo.map((d) => [d.slug, d.domains]));
      const clinical = await searchKnowledge(
        scope,
        { query: "FDA review sample size", k: 20, domains: ["clinical"] },
        by,
      );
      expect(clinical.items.length).toBeGreaterThan(0);
      for (const hit of clinical.items) expect(domainsOf.get(hit.externalId ?? "")).toContain("clinical");

      const unknown = await searchKnowledge(scope, { query: "FDA review", domains: ["no-such-domain"] }, by);
      expect(unknown.items).toEqual([]);

      const agent = searchScopeOf(["regulatory"], "How do I revoke an API key?");
      expect(agent).toEqual(["regulatory", "guide"]);
      const guide = await searchKnowledge(scope, { query: "revoke an API key", k: 3, domains: agent }, by);
      expect(guide.items[0].externalId).toBe("guide-api-keys");
      // A domain question keeps to the agent's domains, even when the guide shares its words.
      expect(searchScopeOf(["safety"], "What goes into a PBRER?")).toEqual(["safety"]);
      const pbrer = await searchKnowledge(
        scope,
        { query: "review confidence sources", k: 20, domains: searchScopeOf(["safety"], "review confidence sources") },
        by,
      );
      for (const hit of pbrer.items) expect(domainsOf.get(hit.externalId ?? "")).toContain("safety");
      // An agent without domains of its own knows the guide alone, never the whole tenant.
      expect(searchScopeOf([], "What goes into a PBRER?")).toEqual(["guide"]);
    });

    it("keeps tenants apart: each sees only its own chunks and statistics", async () => {
      const asAcme = await searchKnowledge(
        { tenantId: suite.tenants.acme },
        { query: "510(k) substantial equivalence predicate device CAPA", k: 50 },
        by,
      );
      const acmeSlugs = new Set(KNOWLEDGE_CORPUS.acme.map((d) => d.slug));
      expect(asAcme.items.length).toBeGreaterThan(0);
      for (const hit of asAcme.items) expect(acmeSlugs.has(hit.externalId ?? "")).toBe(true);
      const visible = await withTenant({ tenantId: suite.tenants.acme }, async (tx) =>
        rowsOf<{ n: number }>(
          await tx.execute(
            sql`select count(*)::int as n from knowledge_postings where tenant_id <> ${suite.tenants.acme}`,
          ),
        ),
      );
      expect(visible[0].n).toBe(0);
    });

    it("refuses a tenant's 64th domain with 409 and writes nothing", async () => {
      const tenantId = await newTenant(suite.database, "domains");
      const names = Array.from({ length: MAX_DOMAINS_PER_TENANT }, (_, i) => `d${i}`);
      for (let i = 0; i < names.length; i += 16) {
        await ingestMarkdown(tenantId, `# Doc ${i}\n\nText number ${i}.`, names.slice(i, i + 16));
      }
      const before = await knowledgeCounts(suite.database);
      await expect(ingestMarkdown(tenantId, "# One more\n\nText.", ["d0", "d64"])).rejects.toMatchObject({
        kind: "conflict",
        code: "TOO_MANY_DOMAINS",
      });
      expect(await knowledgeCounts(suite.database)).toEqual(before);
      // Existing domains still work.
      expect((await ingestMarkdown(tenantId, "# One more\n\nText.", ["d0", "d62"])).created).toBe(true);
    });
  });
}
