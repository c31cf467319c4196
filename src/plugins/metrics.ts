import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** One registry per service instance (not prom-client's global), so tests can build many apps. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'cleaver_' });
  const requests = new Counter({
    name: 'cleaver_http_requests_total',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'cleaver_http_request_duration_seconds',
    help: 'HTTP request duration by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, requests, duration };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  // Label children are looked up once per (method, route, status): hashing labels on every
  // request costs measurable throughput.
  const children = new Map<string, { count: () => void; observe: (v: number) => void }>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, not the URL, keeps label cardinality bounded.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = children.get(key);
    if (!child) {
      const counter = metrics.requests.labels(request.method, route, String(reply.statusCode));
      const histogram = metrics.duration.labels(request.method, route);
      child = { count: () => counter.inc(), observe: (v) => histogram.observe(v) };
      children.set(key, child);
    }
    child.count();
    child.observe(reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
