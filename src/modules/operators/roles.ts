// Operator roles (operator-api.md#operators-and-audit), ordered: each one may do everything
// the ones before it may. CLEAVER_ADMIN_TOKEN acts as `admin`.
import { Type } from 'typebox';

export const ROLES = ['viewer', 'support', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = Type.Enum(ROLES);

/** What a route needs: a role, or `public` (console login page and assets only). */
export type Access = Role | 'public';

const RANK: Record<Role, number> = { viewer: 0, support: 1, admin: 2 };

export const isRole = (value: unknown): value is Role => typeof value === 'string' && value in RANK;

/** True when `role` may use a route that needs `needed`. */
export function allows(role: Role, needed: Access): boolean {
  return needed === 'public' || RANK[role] >= RANK[needed];
}

/** The lower of two roles: a personal token never acts above its operator's current role. */
export function lowerRole(a: Role, b: Role): Role {
  return RANK[a] <= RANK[b] ? a : b;
}
