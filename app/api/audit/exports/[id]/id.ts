import { NotFoundError } from "@/lib/errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The export id of a /api/audit/exports/{id} path: anything else names no export. */
export async function exportIdFrom(params: Promise<{ id: string }>): Promise<string> {
  const { id } = await params;
  if (!UUID.test(id)) throw new NotFoundError("Export", { export_id: id.slice(0, 100) });
  return id.toLowerCase();
}
