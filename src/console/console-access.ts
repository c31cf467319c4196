// Who may open a console page or post its form, written on the route itself like an /admin/v1
// route's declaration (src/lib/route-declaration.ts): `app.get(path, allow('viewer'), handler)`.
// requireAccessRules (src/plugins/auth-hooks.ts) refuses to start the console with a route that
// says nothing, keeps every rule per app (ruledRoutesOf), and the console's table in
// docs/security.md and the role tests are written from what the app registered.
//
// Pages are reads: `viewer`. `support` acts on orders, webhook deliveries and catalog pulls.
// Anything that creates or removes credentials, changes a merchant's profile, status or catalog by
// hand, operators and their tokens is `admin`. Each form posts to a route with the same rule as
// its API twin and names the audit entry it leaves (reads are not audited). No console route is
// open to `platform` (D36).
import type { Access } from '../modules/operators/index.js';

/** The route options of a console route that `access` may call, leaving `auditAction` when it changes something. */
export function allow(access: Access, auditAction?: string): { config: never } {
  return { config: (auditAction ? { access, auditAction } : { access }) as never };
}
