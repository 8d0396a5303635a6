import { auditRunDetail } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { json } from "@/lib/http";
import { route } from "@/lib/server";
import { runIdFrom } from "../../../runs/run-id";
import { readerOf } from "../../reader";

/** One run's audit record: timeline, sub-agent tree, checkpoints and decisions, validations, evidence. */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const runId = await runIdFrom(params);
  return json({ status: "success", ...(await auditRunDetail(readerOf(session), runId)) });
});
