import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import { Counter, collectDefaultMetrics, type Metric, Registry } from 'prom-client';
import { hooksOf } from './route-hooks.js';

const DURATION_NAME = 'cleaver_http_request_duration_seconds';
const DURATION_HELP = 'HTTP request duration by method and route';
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** What one (method, route) has served since the process started, in plain numbers. */
interface RouteSeries {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  /** Observations per bucket (not cumulative; the last slot is above every bound). */
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Per-route request counts and durations, counted in plain numbers on every request and handed
 * to prom-client only when /metrics is read. prom-client's labelled `inc`/`observe` validate and
 * hash the labels on every call, which was a third of what the request metrics cost per request
 * (docs/benchmarks.md, "/health/live against a bare Fastify route"); the exposition is the same
 * (`cleaver_http_requests_total`, `cleaver_http_request_duration_seconds`).
 */
function createHttpSeries() {
  const byRoute = new Map<string, Map<string, RouteSeries>>();
  return {
    record(method: string, route: string, status: number, seconds: number): void {
      let byMethod = byRoute.get(route);
      if (!byMethod) {
        byMethod = new Map();
        byRoute.set(route, byMethod);
      }
      let s = byMethod.get(method);
      if (!s) {
        s = {
          method,
          route,
          byStatus: new Map(),
          buckets: new Array(DURATION_BUCKETS.length + 1).fill(0),
          sum: 0,
          count: 0,
        };
        byMethod.set(method, s);
      }
      s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
      let i = 0;
      while (i < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[i] as number)) i++;
      s.buckets[i] = (s.buckets[i] as number) + 1;
      s.sum += seconds;
      s.count += 1;
    },
    *all(): Iterable<RouteSeries> {
      for (const byMethod of byRoute.values()) yield* byMethod.values();
    },
    reset: () => byRoute.clear(),
  };
}

type HttpSeries = ReturnType<typeof createHttpSeries>;

/** The duration histogram as prom-client's registry prints a histogram (buckets cumulative, `le`). */
function durationHistogram(series: HttpSeries) {
  const meta = { name: DURATION_NAME, help: DURATION_HELP, type: 'histogram', aggregator: 'sum' } as const;
  return {
    ...meta,
    get() {
      const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
      for (const s of series.all()) {
        const labels = { method: s.method, route: s.route };
        let cumulative = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          cumulative += s.buckets[i] as number;
          values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${DURATION_NAME}_bucket` });
        });
        values.push({ labels: { le: '+Inf', ...labels }, value: s.count, metricName: `${DURATION_NAME}_bucket` });
        values.push({ labels, value: s.sum, metricName: `${DURATION_NAME}_sum` });
        values.push({ labels, value: s.count, metricName: `${DURATION_NAME}_count` });
      }
      return Promise.resolve({ ...meta, values });
    },
    reset: () => series.reset(),
  };
}

/** One registry per service instance (not prom-client's global), so tests can build many apps. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'cleaver_' });
  const http = createHttpSeries();
  new Counter({
    name: 'cleaver_http_requests_total',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    // Read when /metrics is scraped: the totals counted per request (createHttpSeries).
    collect() {
      this.reset();
      for (const s of http.all()) {
        for (const [status, n] of s.byStatus) this.inc({ method: s.method, route: s.route, status: String(status) }, n);
      }
    },
  });
  registry.registerMetric(durationHistogram(http) as unknown as Metric);
  return { registry, http };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  // Each route gets its own onResponse hook that already knows its pattern: reading
  // `request.routeOptions` builds a new object on every call, and this runs on every request.
  // Routes registered before this hook would be missed, so buildApp calls it before any route.
  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const record: onResponseHookHandler = (request, reply, done) => {
      metrics.http.record(request.method, pattern, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    // A new array, not a push: Fastify copies a GET route's options for its HEAD twin before
    // this hook runs, and the twin gets a hook of its own when it passes through here.
    route.onResponse = [...hooksOf(route.onResponse), record];
  });
  // Requests that match no route have no route hooks; `is404` is a plain field read.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) metrics.http.record(request.method, 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
