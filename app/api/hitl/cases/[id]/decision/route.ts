import { recordDecision } from "@/lib/hitl";
import { decisionRoute } from "../../../params";

/**
 * The terminal decision: `decision` approved | rejected, `notes`, optional `modifications` and
 * `actor`. Who may decide is the case's to say (a reviewer; on a run's checkpoint, the tenant's
 * separation-of-duties policy: the run's owner, or a reviewer who is not the owner), so any
 * member reaches the rule and is refused there (403 FORBIDDEN) when it does not allow them. The
 * first decision wins: a later one answers 409 ALREADY_TERMINAL whose `details.decision` is the
 * decision that stands.
 */
export const POST = decisionRoute("member", recordDecision);
