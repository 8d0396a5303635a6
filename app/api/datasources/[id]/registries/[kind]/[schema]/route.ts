import { z } from "zod";
import { requireRole } from "@/lib/auth";
import { setRegistry } from "@/lib/datasources";
import { RegistryKind, RegistrySchemaName } from "@/lib/datasources/contract";
import { errors } from "@/lib/errors";
import { json, parseBody } from "@/lib/http";
import { route } from "@/lib/server";
import { sourceId } from "../../../params";

type Params = { id: string; kind: string; schema: string };

const Target = z.strictObject({ kind: RegistryKind, schema: RegistrySchemaName });

/**
 * Replaces one registry of a schema: `domain` (domain_registry.json) or `display`
 * (display_attributes_registry.json). The body is the registry itself; it is checked against
 * the registry schema (400) and the source's catalog (422) before anything is stored.
 */
export const PUT = route<{ params: Promise<Params> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const id = await sourceId(params);
  const { kind, schema } = (await params) as Params;
  const target = Target.safeParse({ kind, schema });
  if (!target.success) throw errors.validation(target.error.issues);
  const registry = await parseBody(req, z.unknown());
  const saved = await setRegistry(session, id, target.data.kind, target.data.schema, registry, session.userId);
  return json({ status: "success", ...saved });
});
