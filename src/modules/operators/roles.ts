// Operator roles (operator-api.md#operators-and-audit). viewer < support < admin are ordered: each
// one may do everything the ones before it may. CLEAVER_ADMIN_TOKEN acts as `admin`. `platform`
// (D36) stands beside them: the role of the marketplace's service tokens, allowed only the routes
// whose rule says so (order intake, the platform's order actions, reading merchants, catalogs,
// orders and the feed), all of which `support` may call too.
import { Type } from 'typebox';

export const ROLES = ['viewer', 'support', 'admin', 'platform'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = Type.Enum(ROLES);

/** The roles of the ladder; a route's rule names one of them (or `public`). */
export type LadderRole = Exclude<Role, 'platform'>;
/** What a route needs: a role, or `public` (console login page and assets only). */
export type Access = LadderRole | 'public';

const RANK: Record<LadderRole, number> = { viewer: 0, support: 1, admin: 2 };

export const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/**
 * True when `role` may use a route that needs `needed`; `platform` only where the route's rule
 * lets it (`platformMay`).
 */
export function allows(role: Role, needed: Access, platformMay = false): boolean {
  if (needed === 'public') return true;
  if (role === 'platform') return platformMay;
  return RANK[role] >= RANK[needed];
}

/**
 * Whether someone holding `holder` may hand out (or an operator of that role may hold) a token of
 * `granted`: never above it. A platform token is below support and admin (everything it may do,
 * they may), and a platform operator holds platform tokens only.
 */
export function mayGrant(holder: Role, granted: Role): boolean {
  if (holder === 'platform') return granted === 'platform';
  if (granted === 'platform') return holder !== 'viewer';
  return RANK[holder] >= RANK[granted];
}

/**
 * The lower of two roles: a personal token never acts above its operator's current role.
 * Undefined when neither is below the other (platform and viewer): such a token acts as nothing.
 */
export function lowerRole(a: Role, b: Role): Role | undefined {
  if (mayGrant(a, b)) return b;
  if (mayGrant(b, a)) return a;
  return undefined;
}
