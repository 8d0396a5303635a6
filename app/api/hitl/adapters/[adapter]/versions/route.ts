import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { registerAdapterVersion } from "@/lib/hitl";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { adapterFrom, jsonObject } from "../../../params";

const RegisterVersion = z.strictObject({ json_schema: jsonObject, activate: z.boolean().optional() });

/** Admin: adds the next schema version of an adapter (a new adapter starts at 1); `activate` makes it the active one. */
export const POST = route<{ params: Promise<{ adapter: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const adapter = await adapterFrom(params);
  const body = await parseBody(req, RegisterVersion, 256 * 1024);
  const row = await registerAdapterVersion(session, adapter, body.json_schema, { activate: body.activate });
  return json(
    {
      status: "success",
      version: {
        adapter: row.adapter,
        version: row.version,
        active: row.active,
        jsonSchema: row.jsonSchema,
        createdAt: row.createdAt,
      },
    },
    { status: 201 },
  );
});
