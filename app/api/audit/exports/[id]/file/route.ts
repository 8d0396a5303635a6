import { openAuditExportFile } from "@/lib/audit";
import { requireRole } from "@/lib/auth";
import { route } from "@/lib/server";
import { readerOf } from "../../../reader";
import { exportIdFrom } from "../id";

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", json: "application/json; charset=utf-8" } as const;

/**
 * A ready export's bytes, streamed part by part. The SHA-256 travels in a header (hex, and as
 * the standard `Repr-Digest`) so a client can check what it received against the manifest.
 */
export const GET = route<{ params: Promise<{ id: string }> }>(async (req, { params }) => {
  const session = await requireRole(req, "admin");
  const file = await openAuditExportFile(readerOf(session), await exportIdFrom(params));
  const { id, kind, format, requestedAt, manifest } = file.export;
  const sha256 = manifest?.sha256 ?? "";
  const name = `vigil-${kind}-${requestedAt.slice(0, 10)}-${id.slice(0, 8)}.${format}`;
  const parts = file.parts;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await parts.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": CONTENT_TYPES[format],
      "content-disposition": `attachment; filename="${name}"`,
      "content-length": String(manifest?.byteSize ?? 0),
      "cache-control": "no-store",
      "x-content-sha256": sha256,
      "repr-digest": `sha-256=:${Buffer.from(sha256, "hex").toString("base64")}:`,
    },
  });
});
