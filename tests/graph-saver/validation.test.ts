import {
  type CheckpointSaverTestInitializer,
  deltaChannelHistoryTests,
  validate,
} from "@langchain/langgraph-checkpoint-validation";
import { describe } from "vitest";
import type { Database } from "@/lib/db";
import { setActiveDatabase } from "@/lib/db";
import { DrizzleCheckpointSaver } from "@/lib/graph-saver";
import { testTargets } from "../support/databases";
import { clearCheckpoints, createTenant } from "./tenants";

// The official conformance suite, run in full against each database: PGlite always, the server
// PostgreSQL when TEST_DATABASE_URL is set. Each checkpointer starts on an empty tenant.
for (const target of testTargets()) {
  describe(target.name, () => {
    let database: Database;
    let tenantId: string;

    const initializer: CheckpointSaverTestInitializer<DrizzleCheckpointSaver> = {
      checkpointerName: `DrizzleCheckpointSaver (${target.name})`,
      beforeAllTimeout: 180_000,
      async beforeAll() {
        database = await target.open();
        setActiveDatabase(database);
        tenantId = await createTenant(database, "validation");
      },
      async afterAll() {
        setActiveDatabase(undefined);
        await database?.close();
      },
      async createCheckpointer() {
        await clearCheckpoints(database, tenantId);
        return new DrizzleCheckpointSaver({ tenantId });
      },
      async destroyCheckpointer() {
        await clearCheckpoints(database, tenantId);
      },
    };

    validate(initializer);
    // Opt-in upstream (the method is beta); the in-repo savers run it too.
    deltaChannelHistoryTests(initializer);
  });
}
