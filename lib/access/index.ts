// Roles and what they may do. Pure: imported by server code and by client components alike.
export const ROLES = ["member", "reviewer", "admin"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { member: 0, reviewer: 1, admin: 2 };

/** Roles are ordered: an admin may do what a reviewer may, a reviewer what a member may. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}
