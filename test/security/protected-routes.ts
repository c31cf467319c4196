// The shared security suite's registry (style.md#tests, unkey runCommonRouteTests): every protected
// /v1 route is listed here. test/security/security.test.ts checks each one against missing,
// malformed, expired, forged, `alg: none`, revoked and deleted-key credentials, and fails when
// the app serves a /v1 route that is missing from this list. The /admin/v1 routes are not listed:
// the suite takes them from their declarations as the app registered them (ruledRoutesOf).

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
