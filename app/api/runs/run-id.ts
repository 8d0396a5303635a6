import { z } from "zod";
import { errors } from "@/lib/errors";

const RunId = z.uuid();

/** The run id of a /api/runs/{id} path, refused with 400 when it cannot be one. */
export async function runIdFrom(params: Promise<{ id: string }>): Promise<string> {
  const parsed = RunId.safeParse((await params).id);
  if (!parsed.success) throw errors.invalidField("id", "Must be a run id (a UUID).");
  return parsed.data;
}
