import { and, eq, inArray, type SQL } from "drizzle-orm";
import { schema } from "@/lib/db";
import { installedWorkflowNames } from "@/lib/runs";

/**
 * The condition an agent meets to be listed and used: active, and answered by a workflow this
 * process has installed. An agent seeded ahead of its workflow (the demo's SQL and research
 * analysts) stays out of the catalog, chats and runs until that workflow ships.
 */
export function usableAgent(): SQL {
  const a = schema.agents;
  return and(eq(a.status, "active"), inArray(a.workflow, installedWorkflowNames())) as SQL;
}
