import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { currentJoinGraph, getJoinGraphVersion } from "@/lib/datasources";
import { json, parseQuery } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "../params";

const Query = z.strictObject({
  /** An earlier version; the current graph when left out. */
  version: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
});

/**
 * The source's join graph: tables with their semantic role, relationships with confidence,
 * source (fk, heuristic, manual) and cardinality, the overrides in force and what of them did
 * not apply. The first read introspects the source and stores version 1.
 */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const id = await sourceId(params);
  const { version } = parseQuery(req, Query);
  const graph =
    version === undefined
      ? await currentJoinGraph(session, id, { actor: session.userId })
      : await getJoinGraphVersion(session, id, version);
  return json({ status: "success", ...graph });
});
