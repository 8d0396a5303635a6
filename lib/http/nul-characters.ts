import { errors } from "@/lib/errors";

const MESSAGE = "Must not contain NUL characters.";

/**
 * Refuses a request whose path or query holds a NUL character: PostgreSQL text cannot store
 * one, so it would otherwise reach a query as an internal error. Bodies are checked where they
 * are parsed (lib/http's parseBody).
 */
export async function refuseNulCharacters(req: Request, context: unknown): Promise<void> {
  const url = new URL(req.url);
  for (const [key, value] of url.searchParams) {
    if (key.includes("\u0000") || value.includes("\u0000")) {
      throw errors.invalidField(`query.${key.replaceAll("\u0000", "")}`, MESSAGE);
    }
  }
  const params = (context as { params?: Promise<Record<string, string | string[] | undefined>> } | undefined)?.params;
  for (const [name, value] of Object.entries((await params) ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => v?.includes("\u0000"))) throw errors.invalidField(name, MESSAGE);
  }
  if (url.pathname.includes("%00")) throw errors.invalidField("path", MESSAGE);
}
