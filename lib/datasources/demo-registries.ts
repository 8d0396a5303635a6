import { type Db, schema, type Tx } from "@/lib/db";
import { DEMO_ONTOLOGY } from "@/lib/ontology";

/**
 * Gives a newly registered demo warehouse the demo registries of its schemas (the seed, on the
 * owner connection). They are the project's own, checked against the warehouse by its tests, so
 * the seed does not load the warehouse to check them again; an admin edits them from then on.
 */
export async function seedDemoRegistries(db: Db | Tx, tenantId: string, sourceId: string): Promise<void> {
  const { sqlRegistries: registries } = schema;
  const values = DEMO_ONTOLOGY.flatMap((o) =>
    (["domain", "display"] as const).map((kind) => ({
      tenantId,
      sourceId,
      kind,
      schemaName: o.schema,
      registry: o[kind],
      updatedBy: "seed",
    })),
  );
  await db
    .insert(registries)
    .values(values)
    .onConflictDoNothing({ target: [registries.sourceId, registries.kind, registries.schemaName] });
}
