import { describe, expect, it } from "vitest";
import { deleteDocument, ingestDocument, searchKnowledge } from "@/lib/rag";
import { testTargets } from "../support/databases";
import { seededDatabase } from "../support/seeded";
import { newTenant, statisticsDrift } from "./support";

// German documents are stemmed as German and English as English, each chunk matched by the
// query's lexemes in its own language; German compounds are found by their parts and parts by
// their compounds, with no word list: the parts are stems the tenant's own documents use.

const by = { createdBy: "test", embeddings: null };

for (const target of testTargets()) {
  describe(`German search on ${target.name}`, () => {
    const suite = seededDatabase(target);

    async function germanTenant() {
      const tenantId = await newTenant(suite.database, "de");
      const scope = { tenantId };
      const ingest = (title: string, content: string) =>
        ingestDocument(scope, { title, format: "text", content, domains: ["strahlenschutz"] }, by);
      const parts = await ingest(
        "Zuständigkeiten",
        "Der Strahlenschutz im Betrieb obliegt dem Strahlenschutzbeauftragten. Jede Verordnung des Bundes gilt unmittelbar; die Behörde des Landes überwacht die Aufsicht vor Ort.",
      );
      const compound = await ingest(
        "Grenzwerte",
        "Die Strahlenschutzverordnung legt Grenzwerte für beruflich exponierte Personen fest. Die zuständige Aufsichtsbehörde kann Ausnahmen zulassen.",
      );
      const english = await ingestDocument(
        scope,
        {
          title: "Dose limits",
          format: "text",
          content: "The radiation protection ordinance sets dose limits for occupationally exposed workers.",
          domains: ["strahlenschutz"],
        },
        by,
      );
      return { scope, tenantId, parts, compound, english };
    }

    const titles = async (scope: { tenantId: string }, query: string) =>
      (await searchKnowledge(scope, { query, k: 3 }, { embeddings: null })).items.map((hit) => hit.title);

    it("stores each document's language and finds German words by their German stems", async () => {
      const { scope, parts, compound, english } = await germanTenant();
      expect([parts.document.language, compound.document.language, english.document.language]).toEqual([
        "de",
        "de",
        "en",
      ]);
      // "Grenzwert" (singular) meets "Grenzwerte" only through the German stemmer.
      expect((await titles(scope, "Welcher Grenzwert gilt?"))[0]).toBe("Grenzwerte");
      // An English question reaches the English document with English stems.
      expect((await titles(scope, "Which dose limit applies to exposed workers?"))[0]).toBe("Dose limits");
    });

    it("finds a compound by its parts and the parts by the compound", async () => {
      const { scope } = await germanTenant();
      // Both documents: "Zuständigkeiten" says "Verordnung", "Grenzwerte" only inside its compound.
      expect(await titles(scope, "Verordnung")).toEqual(expect.arrayContaining(["Grenzwerte", "Zuständigkeiten"]));
      expect(await titles(scope, "Behörde")).toContain("Grenzwerte");
      expect(await titles(scope, "Aufsicht")).toContain("Grenzwerte");
      // The query's compound, split against the tenant's vocabulary, reaches the parts' document.
      expect(await titles(scope, "Strahlenschutzbehörde")).toEqual(expect.arrayContaining(["Zuständigkeiten"]));
      // Without a split the word "Strahlenschutzverordnung" would only match its own document.
      expect(await titles(scope, "Strahlenschutzverordnung")).toEqual(
        expect.arrayContaining(["Grenzwerte", "Zuständigkeiten"]),
      );
    });

    it("keeps the BM25 statistics exact with compound parts, and deleting takes them out", async () => {
      const { scope, tenantId, compound } = await germanTenant();
      expect((await statisticsDrift(suite.database, tenantId)).wrongDf).toBe(0);
      await deleteDocument(scope, compound.document.id);
      const drift = await statisticsDrift(suite.database, tenantId);
      expect(drift.wrongDf).toBe(0);
      expect(drift.stats.kept_n).toBe(drift.stats.true_n);
      expect(drift.stats.kept_len).toBe(drift.stats.true_len);
      expect(await titles(scope, "Verordnung")).not.toContain("Grenzwerte");
    });
  });
}
