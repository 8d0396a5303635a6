import { supersedeDecision } from "@/lib/hitl";
import { decisionRoute } from "../../../params";

/**
 * Admin: replaces the decision that stands on a decided case (`decision`, with the reason in
 * `notes`, required). The first decision stays in the history, named by the new event's
 * `supersedesEventId`. 409 INVALID_STATE_TRANSITION on a case not decided yet.
 */
export const POST = decisionRoute("admin", supersedeDecision);
