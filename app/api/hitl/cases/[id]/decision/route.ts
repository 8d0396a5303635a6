import { recordDecision } from "@/lib/hitl";
import { decisionRoute } from "../../../params";

/**
 * The terminal decision (reviewer or admin): `decision` approved | rejected, `notes`, optional
 * `modifications` and `actor`. The first one wins: a later one answers 409 ALREADY_TERMINAL
 * whose `details.decision` is the decision that stands.
 */
export const POST = decisionRoute("reviewer", recordDecision);
