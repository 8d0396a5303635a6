import "server-only";

export { createApiKey, listApiKeys, looksLikeApiKey, resolveApiKey, revokeApiKey } from "./api-keys";
export type { Membership, Role } from "./contract";
export { claimInvitations, membershipsOf, tenantBySlug } from "./memberships";
