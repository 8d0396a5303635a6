import { z } from "zod";
import { errors } from "@/lib/errors";
import { DOMAIN_PATTERN, MAX_DOMAINS_PER_DOCUMENT } from "@/lib/rag/contract";

/** `?domain=a,b` (comma-separated) as a list of domain names; absent means every domain. */
export const domainsParam = z
  .string()
  .max(600)
  .optional()
  .transform((v) =>
    v
      ? [
          ...new Set(
            v
              .split(",")
              .map((d) => d.trim().toLowerCase())
              .filter(Boolean),
          ),
        ]
      : undefined,
  )
  .pipe(z.array(z.string().regex(DOMAIN_PATTERN, "not a domain name")).max(MAX_DOMAINS_PER_DOCUMENT).optional());

/** The `{id}` of a document route: a uuid, else 400 VALIDATION_FAILED. */
export async function documentIdParam(context: { params: Promise<{ id: string }> }): Promise<string> {
  const id = z.uuid().safeParse((await context.params).id);
  if (!id.success) throw errors.validation(id.error.issues);
  return id.data;
}
