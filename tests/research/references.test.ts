import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { followResearchReferences } from "@/lib/agents";
import { rowsOf } from "@/lib/db";
import { ingestDocument } from "@/lib/rag";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";

// Documents that cite each other by title and by section: following never loops and stops at
// the depth limit (2).
for (const target of appTargets()) {
  describe(`research reference following on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    async function ingest(tenantId: string, title: string, body: string) {
      const { document } = await ingestDocument(
        { tenantId },
        { title, format: "markdown", content: `# ${title}\n\n${body}\n`, domains: ["refcycle"] },
        { createdBy: "seed", embeddings: null },
      );
      const [chunk] = rowsOf<{ id: string; text: string; section: string | null; page: number | null }>(
        await suite.database.db.execute(
          sql`select id::text, text, section, page from knowledge_chunks where document_id = ${document.id} order by ord limit 1`,
        ),
      );
      return {
        chunkId: chunk.id,
        documentId: document.id,
        title,
        section: chunk.section,
        page: chunk.page,
        text: chunk.text,
        score: 1,
      };
    }

    it("follows a chain to depth 2 and a cycle back to its start without looping", async () => {
      const tenantId = suite.tenants.acme;
      const alpha = await ingest(
        tenantId,
        "Alpha Sterilisation Manual",
        "Sterilisation cycles are validated as set out in the Beta Sterilisation Manual.",
      );
      const beta = await ingest(
        tenantId,
        "Beta Sterilisation Manual",
        "Beta extends the Gamma Sterilisation Manual and refers back to the Alpha Sterilisation Manual.",
      );
      await ingest(
        tenantId,
        "Gamma Sterilisation Manual",
        "Gamma points on to the Delta Sterilisation Manual for packaging.",
      );
      await ingest(
        tenantId,
        "Delta Sterilisation Manual",
        "Delta closes the loop by citing the Alpha Sterilisation Manual.",
      );

      const terms = ["sterilisation"];
      const chain = await followResearchReferences({ tenantId }, alpha, terms, new Set());
      const reached = chain.found.map((f) => [f.title, f.depth]);
      expect(reached).toEqual([
        ["Beta Sterilisation Manual", 1],
        ["Gamma Sterilisation Manual", 2],
      ]);
      expect(chain.references.map((r) => r.target)).toEqual(["Beta Sterilisation Manual"]);

      // From Beta, with room to go deeper: Alpha and Gamma (1), Delta (2); Alpha is never
      // visited twice although Delta cites it again, and the walk ends.
      const deep = await followResearchReferences({ tenantId }, beta, terms, new Set(), 5);
      const titles = deep.found.map((f) => f.title);
      expect(new Set(titles).size).toBe(titles.length);
      expect(titles.sort()).toEqual([
        "Alpha Sterilisation Manual",
        "Delta Sterilisation Manual",
        "Gamma Sterilisation Manual",
      ]);
    });
  });
}
