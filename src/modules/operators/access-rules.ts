// Role rules of the console as data: every /console route needs an entry here (or `config.access`
// on the route itself), else the app refuses to start (src/plugins/auth-hooks.ts, onRoute). An
// /admin/v1 route declares its own rule beside its schema (src/lib/route-declaration.ts) and is
// not in this table. The tables in docs/security.md are the rules the app registers;
// test/operators-access checks the two agree and that every role gets exactly what it says.
//
// Reads are `viewer`. `support` acts on orders, webhook deliveries and catalog pulls. Anything
// that creates or removes credentials, changes a merchant's profile, status or catalog by hand,
// operators and their tokens is `admin`. `action` names the audit entry of a route that changes
// something (reads are not audited). No console route is open to `platform` (D36).
import type { Access } from './roles.js';

export interface RouteRule {
  access: Access;
  /** D36: the `platform` role may call it too (the marketplace's service tokens). */
  platform?: true;
  /** Audit action name (e.g. `integrationKey.create`); set on every route that changes state. */
  action?: string;
}

const read: RouteRule = { access: 'viewer' };
const rule = (access: Access, action?: string): RouteRule => (action ? { access, action } : { access });

export const ACCESS_RULES: Record<string, RouteRule> = {
  // Console: pages are reads; each form posts to a route with the same rule as its API twin.
  'GET /console/assets/:name': rule('public'),
  'GET /console/login': rule('public'),
  'POST /console/login': rule('public'),
  'GET /console/language': rule('public'),
  'POST /console/logout': rule('viewer', 'session.logout'),
  'GET /console': read,
  'GET /console/merchants': read,
  'POST /console/merchants': rule('admin', 'merchant.create'),
  'GET /console/merchants/:merchantId': read,
  'POST /console/merchants/:merchantId/status': rule('admin', 'merchant.update'),
  'POST /console/merchants/:merchantId/keys': rule('admin', 'integrationKey.create'),
  'GET /console/merchants/:merchantId/keys/:keyId': read,
  'POST /console/merchants/:merchantId/keys/:keyId/delete': rule('admin', 'integrationKey.revoke'),
  'POST /console/merchants/:merchantId/keys/:keyId/profile': rule('admin', 'integrationKey.update'),
  'GET /console/merchants/:merchantId/catalog': read,
  'POST /console/merchants/:merchantId/catalog/products': rule('admin', 'catalog.createProduct'),
  'GET /console/merchants/:merchantId/products/:productId': read,
  'POST /console/merchants/:merchantId/products/:productId/cuts': rule('admin', 'catalog.addCut'),
  'POST /console/merchants/:merchantId/products/:productId/cuts/remove': rule('admin', 'catalog.removeCut'),
  'POST /console/merchants/:merchantId/catalog/categories': rule('admin', 'catalog.createCategory'),
  'POST /console/merchants/:merchantId/catalog/pull': rule('support', 'catalog.pull'),
  'GET /console/orders': read,
  'GET /console/orders/:orderId': read,
  'GET /console/orders/:orderId/timeline': read,
  'POST /console/orders/:orderId/customerCancellation': rule('support', 'order.customerCancellation'),
  'POST /console/orders/:orderId/cancellationDecision': rule('support', 'order.cancellationDecision'),
  'POST /console/orders/:orderId/events': rule('support', 'order.platformEvent'),
  'GET /console/webhooks': read,
  'POST /console/webhookDeliveries/:deliveryId/retry': rule('support', 'webhookDelivery.retry'),
  'GET /console/notices': read,
  'GET /console/sandbox': read,
  'GET /console/homologations': read,
  'GET /console/homologations/:id': read,
  'POST /console/merchants/:merchantId/keys/:keyId/homologations': rule('support', 'homologation.start'),
  'POST /console/sandbox/orders': rule('support', 'order.create'),
  'GET /console/operators': read,
  'POST /console/operators': rule('admin', 'operator.create'),
  'GET /console/operators/:id': read,
  'POST /console/operators/:id': rule('admin', 'operator.update'),
  'POST /console/operators/:id/password': rule('admin', 'operator.setPassword'),
  'POST /console/operators/:id/totp/reset': rule('admin', 'operator.resetTotp'),
  'POST /console/operators/:id/revokeAccess': rule('admin', 'operator.revokeAccess'),
  'POST /console/operators/:id/tokens/:tokenId/revoke': rule('admin', 'operatorToken.revoke'),
  'GET /console/audit': read,
  'GET /console/audit/export': read,
  'GET /console/account': read,
  'POST /console/account/password': rule('viewer', 'account.changePassword'),
  'POST /console/account/totp': rule('viewer', 'account.startTotp'),
  'POST /console/account/totp/confirm': rule('viewer', 'account.enableTotp'),
  'POST /console/account/totp/disable': rule('viewer', 'account.disableTotp'),
  'POST /console/account/tokens': rule('viewer', 'operatorToken.create'),
  'POST /console/account/tokens/:tokenId/revoke': rule('viewer', 'operatorToken.revoke'),
  'POST /console/account/sessions/revoke': rule('viewer', 'account.revokeSessions'),
};

/** The rule of a route as Fastify names it (HEAD routes follow their GET). */
export function ruleFor(method: string, url: string): RouteRule | undefined {
  const path = url.length > 1 ? url.replace(/\/+$/, '') : url;
  return ACCESS_RULES[`${method === 'HEAD' ? 'GET' : method} ${path}`];
}
