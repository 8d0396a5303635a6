import { and, eq, inArray, type SQL } from "drizzle-orm";
import { schema } from "@/lib/db";

/**
 * The workflows that can answer for an agent in this version of the product. An agent whose
 * `workflow` is not among them (the demo's SQL and research analysts, seeded ahead of theirs)
 * is left out of the catalog, chats and runs until its workflow ships and is added here; a
 * test holds every name to a workflow the server installs.
 */
export const AGENT_WORKFLOWS: readonly string[] = ["ask-expert"];

/** The condition an agent meets to be listed and used: active, and answered by a workflow that exists. */
export function usableAgent(): SQL {
  const a = schema.agents;
  return and(eq(a.status, "active"), inArray(a.workflow, [...AGENT_WORKFLOWS])) as SQL;
}
