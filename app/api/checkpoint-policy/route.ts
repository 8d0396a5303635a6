import { requireRole, requireSession } from "@/lib/auth";
import { deciderPolicy, setDeciderPolicy } from "@/lib/checkpoints";
import { DeciderPolicyUpdate } from "@/lib/checkpoints/contract";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";

/** Who decides a run's checkpoints, per safety level and checkpoint type (and the defaults). */
export const GET = route(async (req) => {
  const session = await requireSession(req);
  return json({ status: "success", ...(await deciderPolicy(session)) });
});

/** An admin changes some rules (`owner` or `four_eyes`); decisions already recorded stand. */
export const PUT = route(async (req) => {
  const session = await requireRole(req, "admin");
  const body = await parseBody(req, DeciderPolicyUpdate, 16 * 1024);
  return json({ status: "success", ...(await setDeciderPolicy(session, body)) });
});
