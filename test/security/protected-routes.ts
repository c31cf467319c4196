// The shared security suite's registry (style.md#tests, unkey runCommonRouteTests): every protected
// route is listed here. test/security/security.test.ts checks each one against missing,
// malformed, expired, forged, `alg: none`, revoked and deleted-key credentials, and fails when
// the app serves a /v1 or /admin/v1 route that is missing from this list.

/** A well-formed id of nothing: the credentials are refused before it is looked up. */
const NO_RUN = '00000000-0000-4000-8000-000000000000';

export interface RouteContext {
  /** A merchant of the calling token, and a second merchant with its own data. */
  merchantId: string;
  otherMerchantId: string;
  /** An order of the calling merchant and one of the other merchant, when orders exist. */
  orderId?: string;
  foreignOrderId?: string;
  /** eventId of CREATED (D1), for acknowledgment payloads. */
  createdEventId?: string;
}

export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route pattern as Fastify knows it (for the completeness check). */
  pattern: string;
  url: (ctx: RouteContext) => string;
  payload?: (ctx: RouteContext) => unknown;
  /** A route on one order: a foreign order must answer 404 `Order not found` (D21). */
  orderRoute?: boolean;
}

const json = (v: unknown) => () => v;
const NO_ID = '00000000-0000-4000-8000-000000000000';

/** /v1 routes behind the merchant bearer token (spec 5.1). */
export const merchantRoutes: ProtectedRoute[] = [
  {
    method: 'PUT',
    pattern: '/v1/merchantOnboarding',
    url: () => '/v1/merchantOnboarding',
    payload: json({ ordersWebhookURL: 'http://127.0.0.1:9' }),
  },
  ...orderRoutes(),
  { method: 'GET', pattern: '/v1/events:polling', url: () => '/v1/events:polling' },
  // The developer routes: the key's own request log and its merchant's webhook endpoint.
  { method: 'GET', pattern: '/v1/developer/requests', url: () => '/v1/developer/requests' },
  { method: 'GET', pattern: '/v1/developer/webhooks', url: () => '/v1/developer/webhooks' },
  {
    method: 'POST',
    pattern: '/v1/events/acknowledgment',
    url: () => '/v1/events/acknowledgment',
    // The CREATED eventId (D1), on the route context's order.
    payload: (c) => [{ id: c.createdEventId, orderId: c.orderId, eventType: 'CREATED' }],
  },
  {
    method: 'PUT',
    pattern: '/v1/merchantUpdate',
    url: () => '/v1/merchantUpdate',
    payload: json({ entityType: 'ITEM', updatedObjects: [] }),
  },
  {
    // Open Delivery's notification (D29); merchantStatus alone needs no registered POS.
    method: 'POST',
    pattern: '/v1/merchantUpdate',
    url: () => '/v1/merchantUpdate',
    payload: json({ merchantStatus: 'AVAILABLE' }),
  },
  {
    method: 'GET',
    pattern: '/v1/merchantStatus',
    url: (c) => `/v1/merchantStatus?merchantId=${c.merchantId}`,
  },
  { method: 'GET', pattern: '/v1/merchant', url: () => '/v1/merchant' },
  // Open Delivery 1.7's merchant status (D35).
  { method: 'GET', pattern: '/v1/merchant/:merchantId/status', url: (c) => `/v1/merchant/${c.merchantId}/status` },
  // Sandbox scenarios (D25: sandbox only; the security suite runs in the sandbox).
  { method: 'GET', pattern: '/v1/sandbox/scenarios', url: () => '/v1/sandbox/scenarios' },
  {
    method: 'POST',
    pattern: '/v1/sandbox/scenarios',
    url: () => '/v1/sandbox/scenarios',
    payload: json({ scenario: 'takeout' }),
  },
  // The sandbox customer's delivery code (spec 4.11; sandbox only): an order route of its own kind.
  {
    method: 'GET',
    pattern: '/v1/sandbox/orders/:orderId/customerDeliveryCode',
    url: (c) => `/v1/sandbox/orders/${c.orderId}/customerDeliveryCode`,
    orderRoute: true,
  },
  // Homologation runs (operator-api.md#homologation; sandbox only).
  { method: 'POST', pattern: '/v1/homologations', url: () => '/v1/homologations', payload: json({}) },
  { method: 'GET', pattern: '/v1/homologations/signingKey', url: () => '/v1/homologations/signingKey' },
  { method: 'GET', pattern: '/v1/homologations/:id', url: () => `/v1/homologations/${NO_RUN}` },
  // `cleaver listen` (sandbox only): the merchant's webhooks handed to a developer's CLI.
  {
    method: 'POST',
    pattern: '/v1/sandbox/listen',
    url: () => '/v1/sandbox/listen',
    payload: json({ forwardTo: 'http://127.0.0.1:9/hooks', waitSeconds: 0 }),
  },
  {
    method: 'POST',
    pattern: '/v1/sandbox/listen/deliveries/:deliveryId/attempts',
    url: () => '/v1/sandbox/listen/deliveries/00000000-0000-4000-8000-000000000001/attempts',
    payload: json({ leaseToken: '00000000-0000-4000-8000-000000000000', statusCode: 200, durationMs: 1 }),
  },
  { method: 'DELETE', pattern: '/v1/sandbox/listen', url: () => '/v1/sandbox/listen' },
];

/** Merchant routes on one order: `orderId` in the path (the security suite checks foreign orders → 404). */
function orderRoutes(): Array<ProtectedRoute & { orderRoute: true }> {
  const route = (method: 'GET' | 'POST' | 'PATCH', action: string, payload?: unknown) => ({
    method,
    pattern: `/v1/orders/:orderId${action}`,
    url: (c: RouteContext) => `/v1/orders/${c.orderId}${action}`,
    payload: payload === undefined ? undefined : json(payload),
    orderRoute: true as const,
  });
  return [
    route('GET', ''),
    route('POST', '/confirm', { createdAt: '2026-01-01T12:00:00Z', orderExternalCode: 'PDV-1' }),
    route('POST', '/requestCancellation', { reason: 'x', code: 'SYSTEMIC_ISSUES', mode: 'AUTO' }),
    route('POST', '/acceptCancellation'),
    route('POST', '/denyCancellation', { reason: 'x', code: 'SYSTEMIC_ISSUES' }),
    route('POST', '/readyForPickup'),
    route('POST', '/dispatch', {}),
    route('POST', '/delivered'),
    route('POST', '/validateCode', { deliveryCode: '0000' }),
    route('POST', '/tracking', { deliveryTrackingInfo: {} }),
    // D38: weighing a KG line.
    route('POST', '/weighing', { items: [{ index: 0, quantity: 1 }] }),
    // D29: Open Delivery's routes, in both profiles.
    route('POST', '/preparing'),
    route('POST', '/pickedUp'),
    route('PATCH', '/details', { preparationStartDateTime: '2026-01-01T12:30:00Z' }),
  ];
}

/** /admin/v1 routes behind the operator token. */
export const adminRoutes: ProtectedRoute[] = [
  { method: 'POST', pattern: '/admin/v1/merchants', url: () => '/admin/v1/merchants', payload: json({ name: 'x' }) },
  { method: 'GET', pattern: '/admin/v1/merchants', url: () => '/admin/v1/merchants' },
  { method: 'GET', pattern: '/admin/v1/merchants/:merchantId', url: (c) => `/admin/v1/merchants/${c.merchantId}` },
  {
    method: 'PATCH',
    pattern: '/admin/v1/merchants/:merchantId',
    url: (c) => `/admin/v1/merchants/${c.merchantId}`,
    payload: json({ name: 'y' }),
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/integrationKeys',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/integrationKeys`,
    payload: json({}),
  },
  {
    method: 'PATCH',
    pattern: '/admin/v1/merchants/:merchantId/integrationKeys/:keyId',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/integrationKeys/00000000-0000-4000-8000-000000000000`,
    payload: json({ profile: 'opendelivery' }),
  },
  {
    method: 'DELETE',
    pattern: '/admin/v1/merchants/:merchantId/integrationKeys/:keyId',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/integrationKeys/00000000-0000-4000-8000-000000000000`,
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/categories',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/categories`,
    payload: json({ name: 'Bovinos' }),
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/products',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/products`,
    payload: json({ name: 'Picanha', price: 89.9, unit: 'KG' }),
  },
  // D37: a product's cuts (a well-formed id of no product: the credentials are refused first).
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/products/:productId',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/products/${NO_ID}`,
  },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/products/:productId/cuts',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/products/${NO_ID}/cuts`,
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/products/:productId/cuts',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/products/${NO_ID}/cuts`,
    payload: json({ name: 'Bife', spice: { name: 'Alho' } }),
  },
  {
    method: 'DELETE',
    pattern: '/admin/v1/merchants/:merchantId/products/:productId/cuts/:cutId',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/products/${NO_ID}/cuts/bife`,
  },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/catalogSyncs',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/catalogSyncs`,
  },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/webhookHealth',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/webhookHealth`,
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/webhookDeliveries/retryFailed',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/webhookDeliveries/retryFailed`,
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/webhookDeliveries/recover',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/webhookDeliveries/recover`,
    payload: json({ since: '2026-01-01T00:00:00Z' }),
  },
  { method: 'GET', pattern: '/admin/v1/notices', url: () => '/admin/v1/notices' },
  { method: 'GET', pattern: '/admin/v1/feed', url: () => '/admin/v1/feed' },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/history',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/history`,
  },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/integrationKeys/:keyId/usage',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/integrationKeys/00000000-0000-4000-8000-000000000000/usage`,
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/catalogPull',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/catalogPull`,
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/orders',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/orders`,
    payload: json({ type: 'DELIVERY', items: [] }),
  },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/orders',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/orders`,
  },
  { method: 'GET', pattern: '/admin/v1/orders', url: () => '/admin/v1/orders' },
  { method: 'GET', pattern: '/admin/v1/orders/:orderId', url: (c) => `/admin/v1/orders/${c.orderId}` },
  {
    method: 'POST',
    pattern: '/admin/v1/orders/:orderId/customerCancellation',
    url: (c) => `/admin/v1/orders/${c.orderId}/customerCancellation`,
    payload: json({}),
  },
  {
    method: 'POST',
    pattern: '/admin/v1/orders/:orderId/cancellationDecision',
    url: (c) => `/admin/v1/orders/${c.orderId}/cancellationDecision`,
    payload: json({ decision: 'deny' }),
  },
  {
    method: 'POST',
    pattern: '/admin/v1/orders/:orderId/events',
    url: (c) => `/admin/v1/orders/${c.orderId}/events`,
    payload: json({ eventType: 'CONCLUDED' }),
  },
  {
    method: 'POST',
    pattern: '/admin/v1/logisticsApps',
    url: () => '/admin/v1/logisticsApps',
    payload: json({ name: 'x', merchantIds: [] }),
  },
  { method: 'GET', pattern: '/admin/v1/logisticsApps', url: () => '/admin/v1/logisticsApps' },
  {
    method: 'DELETE',
    pattern: '/admin/v1/logisticsApps/:appId',
    url: () => '/admin/v1/logisticsApps/00000000-0000-4000-8000-000000000000',
  },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/webhookDeliveries',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/webhookDeliveries`,
  },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/sandbox/scenarios',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/sandbox/scenarios`,
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/sandbox/scenarios',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/sandbox/scenarios`,
    payload: json({ scenario: 'takeout' }),
  },
  {
    method: 'POST',
    pattern: '/admin/v1/merchants/:merchantId/integrationKeys/:keyId/homologations',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/integrationKeys/${NO_RUN}/homologations`,
    payload: json({}),
  },
  {
    method: 'GET',
    pattern: '/admin/v1/merchants/:merchantId/integrationKeys/:keyId/homologations',
    url: (c) => `/admin/v1/merchants/${c.merchantId}/integrationKeys/${NO_RUN}/homologations`,
  },
  { method: 'GET', pattern: '/admin/v1/homologations/:id', url: () => `/admin/v1/homologations/${NO_RUN}` },
  {
    method: 'POST',
    pattern: '/admin/v1/webhookDeliveries/:deliveryId/retry',
    url: () => '/admin/v1/webhookDeliveries/00000000-0000-4000-8000-000000000000/retry',
  },
  // Operators and audit (docs/security.md)
  { method: 'POST', pattern: '/admin/v1/operators', url: () => '/admin/v1/operators', payload: json({}) },
  { method: 'GET', pattern: '/admin/v1/operators', url: () => '/admin/v1/operators' },
  { method: 'GET', pattern: '/admin/v1/operators/:id', url: () => `/admin/v1/operators/${NO_ID}` },
  {
    method: 'PATCH',
    pattern: '/admin/v1/operators/:id',
    url: () => `/admin/v1/operators/${NO_ID}`,
    payload: json({ role: 'viewer' }),
  },
  {
    method: 'POST',
    pattern: '/admin/v1/operators/:id/password',
    url: () => `/admin/v1/operators/${NO_ID}/password`,
    payload: json({ password: 'a long enough password' }),
  },
  { method: 'DELETE', pattern: '/admin/v1/operators/:id/totp', url: () => `/admin/v1/operators/${NO_ID}/totp` },
  {
    method: 'POST',
    pattern: '/admin/v1/operators/:id/revokeAccess',
    url: () => `/admin/v1/operators/${NO_ID}/revokeAccess`,
  },
  { method: 'GET', pattern: '/admin/v1/operators/:id/tokens', url: () => `/admin/v1/operators/${NO_ID}/tokens` },
  {
    method: 'POST',
    pattern: '/admin/v1/operators/:id/tokens',
    url: () => `/admin/v1/operators/${NO_ID}/tokens`,
    payload: json({}),
  },
  {
    method: 'DELETE',
    pattern: '/admin/v1/operators/:id/tokens/:tokenId',
    url: () => `/admin/v1/operators/${NO_ID}/tokens/${NO_ID}`,
  },
  { method: 'GET', pattern: '/admin/v1/me', url: () => '/admin/v1/me' },
  { method: 'POST', pattern: '/admin/v1/me/tokens', url: () => '/admin/v1/me/tokens', payload: json({}) },
  { method: 'DELETE', pattern: '/admin/v1/me/tokens/:tokenId', url: () => `/admin/v1/me/tokens/${NO_ID}` },
  { method: 'GET', pattern: '/admin/v1/audit', url: () => '/admin/v1/audit' },
  { method: 'GET', pattern: '/admin/v1/audit/export', url: () => '/admin/v1/audit/export' },
];
