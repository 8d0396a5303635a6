import { describe, expect, it } from "vitest";
import { ingestDocument, searchKnowledge } from "@/lib/rag";
import { appTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { newTenant } from "./support";

// A query's acronym that the knowledge base never writes ("SBOM") is looked up by its initials
// when the search finds nothing, and the search is run again with the spelling found.

const by = { createdBy: "test", embeddings: null };

for (const target of appTargets()) {
  describe(`acronyms the knowledge base spells out, on ${target.name}`, () => {
    const suite = seededDatabase(target, { knowledge: false });

    async function tenant() {
      const scope = { tenantId: await newTenant(suite.database, "acronyms") };
      const ingest = (title: string, content: string, domains: string[]) =>
        ingestDocument(scope, { title, format: "text", content, domains }, by);
      await ingest(
        "Release checklist",
        "Every release ships with a software bill of materials listing open-source components with versions.",
        ["cyber"],
      );
      await ingest("Sterile barrier", "Seals are tested for strength and bubble leaks before release.", ["quality"]);
      return scope;
    }

    const titles = async (scope: { tenantId: string }, query: string, domains?: string[]) =>
      (await searchKnowledge(scope, { query, k: 3, domains }, { embeddings: null })).items.map((hit) => hit.title);

    it("finds the passage that spells the acronym out", async () => {
      const scope = await tenant();
      expect(await titles(scope, "SBOM")).toEqual(["Release checklist"]);
      expect(await titles(scope, "SBOM", ["cyber"])).toEqual(["Release checklist"]);
    });

    it("stays within the domains searched, and finds nothing for letters nothing spells", async () => {
      const scope = await tenant();
      expect(await titles(scope, "SBOM", ["quality"])).toEqual([]);
      expect(await titles(scope, "PMDA")).toEqual([]);
    });
  });
}
