// Webhook metrics at /metrics (D11): outcomes of attempts, their durations, the queue's depth.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Db } from '../../db/db.js';
import * as repo from './webhooks-repository.js';

export type Outcome = 'delivered' | 'retry_scheduled' | 'failed';

export function createWebhookMetrics(registry: Registry | undefined, db: Db) {
  const registers = registry ? [registry] : [];
  return {
    deliveries: new Counter({
      name: 'cleaver_webhook_deliveries_total',
      help: 'Webhook attempts by what became of the delivery: delivered, retry_scheduled or failed',
      labelNames: ['outcome'] as const,
      registers,
    }),
    attemptDuration: new Histogram({
      name: 'cleaver_webhook_attempt_duration_seconds',
      help: 'Duration of webhook attempts by result class (2xx, 3xx, 4xx, 5xx, error)',
      labelNames: ['result'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    }),
    endpoints: new Gauge({
      name: 'cleaver_webhook_endpoints',
      help: 'Merchant webhook endpoints by health: healthy, failing, disabled',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        try {
          const counts = await repo.countEndpointsByState(db);
          for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
        } catch {
          // database unreachable: keep the last values
        }
      },
    }),
    queueDepth: new Gauge({
      name: 'cleaver_webhook_queue_depth',
      help: 'Webhook deliveries PENDING (due, waiting for a retry, or in flight)',
      registers,
      async collect() {
        try {
          this.set(await repo.countPending(db));
        } catch {
          // database unreachable: keep the last value
        }
      },
    }),
  };
}

export type WebhookMetrics = ReturnType<typeof createWebhookMetrics>;
