import { roleAtLeast } from "@/lib/access";
import type { RunActor } from "./lifecycle";
import { findWorkflow, workflowNamesWhere } from "./registry";

/**
 * Workflows whose runs are private to whoever started them (`privateToStarter`), whatever the
 * viewer's role: a chat run carries a member's question and answer, and a consultation is
 * private to its member. A reviewer sees such an answer only through the case that asks for
 * its review.
 */
export const privateWorkflows = (): string[] => workflowNamesWhere((w) => w.privateToStarter);

/** Whether this actor may see (and so act on) the run: their own, or another's for reviewers. */
export function canSeeRun(actor: RunActor, run: { createdBy: string; workflow: string }): boolean {
  if (run.createdBy === actor.userId) return true;
  return !findWorkflow(run.workflow)?.privateToStarter && roleAtLeast(actor.role, "reviewer");
}
