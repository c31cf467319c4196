// The route groups usage is counted in: what support asks about a POS ("is it polling? acking?
// confirming? being throttled?"), not one row per URL.

export const ROUTE_GROUPS = [
  'poll',
  'acknowledge',
  'orders-read',
  'order-actions',
  'catalog',
  'onboarding',
  'other',
] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

/** A Fastify route pattern (`/v1/orders/:orderId/confirm`) and method → its group. */
export function routeGroupOf(method: string, routeUrl: string | undefined): RouteGroup {
  const url = routeUrl ?? '';
  if (url === '/v1/events::polling' || url === '/v1/events:polling') return 'poll';
  if (url === '/v1/events/acknowledgment') return 'acknowledge';
  if (url.startsWith('/v1/orders/')) return method === 'GET' ? 'orders-read' : 'order-actions';
  if (url.startsWith('/v1/merchant')) return url === '/v1/merchantOnboarding' ? 'onboarding' : 'catalog';
  return 'other';
}
