import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { QueryAnchor } from "./contract";

/** sha256 over the anchor's canonical JSON (RFC 8785), without its own `hash`. */
export function anchorHash(anchor: Omit<QueryAnchor, "hash">): string {
  const { hash: _ignored, ...rest } = anchor as QueryAnchor;
  return createHash("sha256")
    .update(canonicalize(rest) ?? "")
    .digest("hex");
}

export function sealAnchor(anchor: Omit<QueryAnchor, "hash">): QueryAnchor {
  return Object.freeze({ ...anchor, hash: anchorHash(anchor) });
}

/** True when the anchor is what its hash says: nothing changed it after hitl_finalize. */
export const anchorIntact = (anchor: QueryAnchor) => anchorHash(anchor) === anchor.hash;
