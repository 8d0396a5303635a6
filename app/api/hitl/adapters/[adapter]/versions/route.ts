import { z } from "zod";
import { requireRole, requireSession } from "@/lib/auth";
import { NotFoundError } from "@/lib/errors";
import { listAdapters, registerAdapterVersion } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { adapterFrom, jsonObject } from "../../../params";

const RegisterVersion = z.strictObject({ schema_json: jsonObject, activate: z.boolean().optional() });

/** An adapter's stored schema versions, each with when it was created and last activated. */
export const GET = route<{ params: Promise<{ adapter: string }> }>(async (req, { params }) => {
  const session = await requireSession(req);
  const adapter = await adapterFrom(params);
  const found = (await listAdapters(session, { detail: true })).find((a) => a.adapter === adapter);
  if (!found) throw new NotFoundError("Adapter", { adapter_id: adapter });
  return json({
    status: "success",
    adapter,
    builtIn: found.builtIn,
    activeVersion: found.activeVersion,
    count: found.versionHistory.length,
    items: found.versionHistory,
  });
});

/** Admin: adds the next schema version of an adapter (a new adapter starts at 1); `activate` makes it the active one. */
export const POST = route<{ params: Promise<{ adapter: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const adapter = await adapterFrom(params);
  const body = await parseBody(req, RegisterVersion, 256 * 1024);
  const row = await registerAdapterVersion(session, adapter, body.schema_json, { activate: body.activate });
  return json(
    {
      status: "success",
      version: {
        adapter: row.adapter,
        version: row.version,
        active: row.active,
        jsonSchema: row.jsonSchema,
        createdAt: row.createdAt,
        activatedAt: row.activatedAt,
      },
    },
    { status: 201 },
  );
});
