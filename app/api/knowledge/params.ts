import { z } from "zod";
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
