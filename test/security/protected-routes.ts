// The shared security suite's requests (style.md#tests, unkey runCommonRouteTests). Which /v1
// routes are protected is not listed here: test/security/security.test.ts takes every route the
// app registered as declared for the merchant's token (src/lib/route-declaration.ts,
// declaredRoutesOf) and checks each one against missing, malformed, expired, forged, `alg: none`,
// revoked and deleted-key credentials. This file only says how to call a route when the default
// (its path with the context's ids, no body) would not reach the credentials check the way the
// suite means: a body that passes validation, a query parameter.

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
  /** The path as /openapi.json writes it (`/v1/orders/{orderId}`). */
  path: string;
  url: (ctx: RouteContext) => string;
  payload?: (ctx: RouteContext) => unknown;
  /** A route on one order: a foreign order must answer 404 `Order not found` (D21). */
  orderRoute: boolean;
}

type Fixture = Partial<Pick<ProtectedRoute, 'url' | 'payload'>>;

const json = (v: unknown) => () => v;
const body = (v: unknown): Fixture => ({ payload: json(v) });

/** Requests that need more than the default, by `METHOD path`; a key that is no declared route fails the suite. */
export const REQUEST_FIXTURES: Record<string, Fixture> = {
  'PUT /v1/merchantOnboarding': body({ ordersWebhookURL: 'http://127.0.0.1:9' }),
  'POST /v1/orders/{orderId}/confirm': body({ createdAt: '2026-01-01T12:00:00Z', orderExternalCode: 'PDV-1' }),
  'POST /v1/orders/{orderId}/requestCancellation': body({ reason: 'x', code: 'SYSTEMIC_ISSUES', mode: 'AUTO' }),
  'POST /v1/orders/{orderId}/denyCancellation': body({ reason: 'x', code: 'SYSTEMIC_ISSUES' }),
  'POST /v1/orders/{orderId}/dispatch': body({}),
  'POST /v1/orders/{orderId}/validateCode': body({ deliveryCode: '0000' }),
  'POST /v1/orders/{orderId}/tracking': body({ deliveryTrackingInfo: {} }),
  // D38: weighing a KG line.
  'POST /v1/orders/{orderId}/weighing': body({ items: [{ index: 0, quantity: 1 }] }),
  // D41: the shop's scale label layouts.
  'PUT /v1/merchant/scaleLabelLayouts': body([
    { prefix: '2', codeDigits: 6, value: 'WEIGHT', valueDigits: 5, decimals: 3 },
  ]),
  'PATCH /v1/orders/{orderId}/details': body({ preparationStartDateTime: '2026-01-01T12:30:00Z' }),
  // The CREATED eventId (D1), on the route context's order.
  'POST /v1/events/acknowledgment': {
    payload: (c) => [{ id: c.createdEventId, orderId: c.orderId, eventType: 'CREATED' }],
  },
  'PUT /v1/merchantUpdate': body({ entityType: 'ITEM', updatedObjects: [] }),
  // Open Delivery's notification (D29); merchantStatus alone needs no registered POS.
  'POST /v1/merchantUpdate': body({ merchantStatus: 'AVAILABLE' }),
  'GET /v1/merchantStatus': { url: (c) => `/v1/merchantStatus?merchantId=${c.merchantId}` },
  // Sandbox scenarios (D25: sandbox only; the security suite runs in the sandbox).
  'POST /v1/sandbox/scenarios': body({ scenario: 'takeout' }),
  // Homologation runs (operator-api.md#homologation; sandbox only).
  'POST /v1/homologations': body({}),
  // `cleaver listen` (sandbox only): the merchant's webhooks handed to a developer's CLI.
  'POST /v1/sandbox/listen': body({ forwardTo: 'http://127.0.0.1:9/hooks', waitSeconds: 0 }),
  'POST /v1/sandbox/listen/deliveries/{deliveryId}/attempts': body({
    leaseToken: '00000000-0000-4000-8000-000000000000',
    statusCode: 200,
    durationMs: 1,
  }),
};

/** The path with the context's ids: the calling merchant, its order, and an id of nothing for the rest. */
function defaultUrl(path: string): (ctx: RouteContext) => string {
  return (c) =>
    path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      name === 'orderId' ? String(c.orderId) : name === 'merchantId' ? c.merchantId : NO_RUN,
    );
}

/** How the suite calls each declared merchant route (`METHOD path` as /openapi.json writes it). */
export function protectedRoutes(declared: Array<{ method: string; path: string }>): ProtectedRoute[] {
  return declared.map(({ method, path }) => {
    const fixture = REQUEST_FIXTURES[`${method} ${path}`] ?? {};
    return {
      method: method as ProtectedRoute['method'],
      path,
      url: fixture.url ?? defaultUrl(path),
      ...(fixture.payload ? { payload: fixture.payload } : {}),
      orderRoute: path.includes('{orderId}'),
    };
  });
}
