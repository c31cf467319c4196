// Role rules as data: every /admin/v1 and /console route needs an entry here (or `config.access`
// on the route itself), else the app refuses to start (src/plugins/auth-hooks.ts, onRoute). The
// table in docs/security.md is this table; test/operators-access checks the two agree and that
// every role gets exactly what it says.
//
// Reads are `viewer`. `platform` (D36) may call only the routes wrapped in platform(): order
// intake, the platform's order actions, reading merchants, catalogs, orders and the feed. `support` acts on orders, webhook deliveries and catalog pulls. Anything
// that creates or removes credentials, changes a merchant's profile, status or catalog by hand,
// logistics partners, operators and their tokens is `admin`. `action` names the audit entry of
// a route that changes something (reads are not audited).
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
/** D36: a route the `platform` role may call as well. */
const platform = (r: RouteRule): RouteRule => ({ ...r, platform: true });

export const ACCESS_RULES: Record<string, RouteRule> = {
  // Operator API: merchants and credentials
  'POST /admin/v1/merchants': rule('admin', 'merchant.create'),
  'GET /admin/v1/merchants': platform(read),
  'GET /admin/v1/merchants/:merchantId': platform(read),
  'PATCH /admin/v1/merchants/:merchantId': rule('admin', 'merchant.update'),
  'POST /admin/v1/merchants/:merchantId/integrationKeys': rule('admin', 'integrationKey.create'),
  'PATCH /admin/v1/merchants/:merchantId/integrationKeys/:keyId': rule('admin', 'integrationKey.update'),
  'DELETE /admin/v1/merchants/:merchantId/integrationKeys/:keyId': rule('admin', 'integrationKey.revoke'),
  'POST /admin/v1/merchants/:merchantId/categories': rule('admin', 'catalog.createCategory'),
  'POST /admin/v1/merchants/:merchantId/products': rule('admin', 'catalog.createProduct'),
  'GET /admin/v1/merchants/:merchantId/products/:productId': platform(read),
  'GET /admin/v1/merchants/:merchantId/products/:productId/cuts': platform(read),
  'POST /admin/v1/merchants/:merchantId/products/:productId/cuts': rule('admin', 'catalog.addCut'),
  'DELETE /admin/v1/merchants/:merchantId/products/:productId/cuts/:cutId': rule('admin', 'catalog.removeCut'),
  'GET /admin/v1/merchants/:merchantId/catalogSyncs': platform(read),
  'GET /admin/v1/merchants/:merchantId/history': read,
  'GET /admin/v1/merchants/:merchantId/integrationKeys/:keyId/usage': read,
  'POST /admin/v1/merchants/:merchantId/catalogPull': rule('support', 'catalog.pull'),
  // Logistics partners
  'POST /admin/v1/logisticsApps': rule('admin', 'logisticsApp.create'),
  'GET /admin/v1/logisticsApps': read,
  'DELETE /admin/v1/logisticsApps/:appId': rule('admin', 'logisticsApp.deactivate'),
  // Orders
  'POST /admin/v1/merchants/:merchantId/orders': platform(rule('support', 'order.create')),
  'GET /admin/v1/merchants/:merchantId/orders': platform(read),
  'GET /admin/v1/orders': platform(read),
  'GET /admin/v1/orders/:orderId': platform(read),
  'POST /admin/v1/orders/:orderId/customerCancellation': platform(rule('support', 'order.customerCancellation')),
  'POST /admin/v1/orders/:orderId/cancellationDecision': platform(rule('support', 'order.cancellationDecision')),
  'POST /admin/v1/orders/:orderId/events': platform(rule('support', 'order.platformEvent')),
  // Webhook deliveries
  'GET /admin/v1/merchants/:merchantId/webhookDeliveries': read,
  'POST /admin/v1/webhookDeliveries/:deliveryId/retry': rule('support', 'webhookDelivery.retry'),
  'GET /admin/v1/merchants/:merchantId/webhookHealth': read,
  'POST /admin/v1/merchants/:merchantId/webhookDeliveries/retryFailed': rule('support', 'webhookDelivery.retryFailed'),
  'POST /admin/v1/merchants/:merchantId/webhookDeliveries/recover': rule('support', 'webhookDelivery.recover'),
  'GET /admin/v1/notices': read,
  // The platform feed (D36)
  'GET /admin/v1/feed': platform(read),
  // Sandbox scenarios (sandbox only; the routes do not exist in production)
  'GET /admin/v1/merchants/:merchantId/sandbox/scenarios': read,
  'POST /admin/v1/merchants/:merchantId/sandbox/scenarios': rule('support', 'sandbox.playScenario'),
  // Homologation (sandbox test runs of an integration key)
  'POST /admin/v1/merchants/:merchantId/integrationKeys/:keyId/homologations': rule('support', 'homologation.start'),
  'GET /admin/v1/merchants/:merchantId/integrationKeys/:keyId/homologations': read,
  'GET /admin/v1/homologations/:id': read,
  // Operators, their tokens, the audit log
  'POST /admin/v1/operators': rule('admin', 'operator.create'),
  'GET /admin/v1/operators': read,
  'GET /admin/v1/operators/:id': read,
  'PATCH /admin/v1/operators/:id': rule('admin', 'operator.update'),
  'POST /admin/v1/operators/:id/password': rule('admin', 'operator.setPassword'),
  'DELETE /admin/v1/operators/:id/totp': rule('admin', 'operator.resetTotp'),
  'POST /admin/v1/operators/:id/revokeAccess': rule('admin', 'operator.revokeAccess'),
  'GET /admin/v1/operators/:id/tokens': read,
  'POST /admin/v1/operators/:id/tokens': rule('admin', 'operatorToken.create'),
  'DELETE /admin/v1/operators/:id/tokens/:tokenId': rule('admin', 'operatorToken.revoke'),
  'GET /admin/v1/me': read,
  'POST /admin/v1/me/tokens': rule('viewer', 'operatorToken.create'),
  'DELETE /admin/v1/me/tokens/:tokenId': rule('viewer', 'operatorToken.revoke'),
  'GET /admin/v1/audit': read,
  'GET /admin/v1/audit/export': read,

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

/**
 * Rules for routes that operator-api.md fixes but that other modules serve (they may not be
 * registered in every build): a rule may exist before its route, never a route before its rule.
 */
export const DECLARED_AHEAD = new Set([
  'GET /admin/v1/merchants/:merchantId/sandbox/scenarios',
  'POST /admin/v1/merchants/:merchantId/sandbox/scenarios',
]);

/** The rule of a route as Fastify names it (HEAD routes follow their GET). */
export function ruleFor(method: string, url: string): RouteRule | undefined {
  const path = url.length > 1 ? url.replace(/\/+$/, '') : url;
  return ACCESS_RULES[`${method === 'HEAD' ? 'GET' : method} ${path}`];
}
