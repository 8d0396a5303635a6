export type { CreatedApiKey, ResolvedApiKey } from "./api-keys";
export { createApiKey, hashApiKey, listApiKeys, looksLikeApiKey, resolveApiKey, revokeApiKey } from "./api-keys";
export { claimInvitations, membershipsOf, tenantBySlug } from "./memberships";
export type { ApiKeySummary, Membership, Role } from "./types";
