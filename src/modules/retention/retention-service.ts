// D30: nothing grows with history that no one reads. The worker role prunes in small batches,
// each found through an index of its own (migration 0011), so a batch never holds a long lock
// and costs the same whatever the size of the table (bench/retention.ts measures it). The
// module owns no table: every deletion is the owning module's, through its index.ts.
import { Counter, type Registry } from 'prom-client';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';

export type RetentionConfig = Config['retention'];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface RetentionDeps {
  clock: Clock;
  config: RetentionConfig;
  events: {
    pruneAcknowledgedReceipts(before: Date, limit: number): Promise<number>;
    expirePendingReceipts(before: Date, limit: number): Promise<number>;
    pruneOrderHistory(orderIds: string[]): Promise<number>;
  };
  orders: {
    finishedOrdersToPrune(before: Date, limit: number): Promise<string[]>;
    markHistoryPruned(orderIds: string[]): Promise<number>;
  };
  webhooks: { pruneOrderDeliveries(orderIds: string[]): Promise<number> };
  logistics: {
    pruneOrderUpdates(orderIds: string[]): Promise<number>;
    pruneOrphanRequests(before: Date, limit: number): Promise<number>;
  };
  catalog: { pruneSyncs(keep: number, before: Date, limit: number): Promise<number> };
  usage: { pruneUsage(before: Date, limit: number): Promise<number> };
  /** D36: platform feed items; never one the NATS relay has not published yet. */
  feed?: { pruneOlderThan(before: Date, limit: number): Promise<number> };
  /** The integrators' request log, 24 hours (its own horizon, not configurable). */
  requestLog?: { prune(now: number, limit: number): Promise<number> };
  registry?: Registry;
}

export type RetentionStep =
  | 'acknowledged_receipts'
  | 'expired_receipts'
  | 'finished_orders'
  | 'logistics_requests'
  | 'catalog_syncs'
  | 'usage_minutes'
  | 'feed_items'
  | 'request_log';

export function createRetention(deps: RetentionDeps) {
  const { clock, config } = deps;
  const registers = deps.registry ? [deps.registry] : [];
  const pruned = new Counter({
    name: 'cleaver_retention_pruned_total',
    help: 'Rows removed by retention (D30), by what they were (finished_orders: orders whose history went)',
    labelNames: ['what'] as const,
    registers,
  });
  const expired = new Counter({
    name: 'cleaver_receipts_expired_unacknowledged_total',
    help: 'Events a POS never acknowledged, dropped from its polling after the horizon (D30)',
    registers,
  });

  /** Each step: one batch, how many rows it removed (0: nothing left for now). */
  const steps: Record<RetentionStep, (now: number) => Promise<number>> = {
    acknowledged_receipts: (now) =>
      deps.events.pruneAcknowledgedReceipts(new Date(now - config.acknowledgedReceiptsHours * HOUR), config.batch),
    expired_receipts: async (now) => {
      const n = await deps.events.expirePendingReceipts(new Date(now - config.pendingReceiptsDays * DAY), config.batch);
      expired.inc(n);
      return n;
    },
    // Orders stay (business records); the history around a long-finished one goes, module by
    // module, and the order is marked last, so a crash midway only repeats idempotent deletes.
    finished_orders: async (now) => {
      const ids = await deps.orders.finishedOrdersToPrune(
        new Date(now - config.finishedOrdersDays * DAY),
        config.orderBatch,
      );
      if (ids.length === 0) return 0;
      const rows =
        (await deps.events.pruneOrderHistory(ids)) +
        (await deps.webhooks.pruneOrderDeliveries(ids)) +
        (await deps.logistics.pruneOrderUpdates(ids)) +
        (await deps.orders.markHistoryPruned(ids));
      pruned.inc({ what: 'order_history_rows' }, rows);
      return ids.length;
    },
    logistics_requests: (now) =>
      deps.logistics.pruneOrphanRequests(new Date(now - config.finishedOrdersDays * DAY), config.batch),
    catalog_syncs: (now) =>
      deps.catalog.pruneSyncs(config.syncPayloads, new Date(now - config.syncSummaryDays * DAY), config.batch),
    usage_minutes: (now) => deps.usage.pruneUsage(new Date(now - config.usageHours * HOUR), config.batch),
    feed_items: (now) =>
      deps.feed?.pruneOlderThan(new Date(now - config.feedDays * DAY), config.batch) ?? Promise.resolve(0),
    request_log: (now) => deps.requestLog?.prune(now, config.batch) ?? Promise.resolve(0),
  };

  /**
   * Runs every step batch after batch until nothing is left or `budgetMs` is spent; returns
   * what was removed. Between batches other work gets the database (each batch its own
   * statements, no transaction spanning them).
   */
  async function runOnce(budgetMs = 5_000): Promise<Record<RetentionStep, number>> {
    const done = Object.fromEntries(Object.keys(steps).map((k) => [k, 0])) as Record<RetentionStep, number>;
    const until = Date.now() + budgetMs;
    const pending = new Set(Object.keys(steps) as RetentionStep[]);
    while (pending.size > 0 && Date.now() < until) {
      for (const step of [...pending]) {
        const n = await steps[step](clock.now().getTime());
        done[step] += n;
        pruned.inc({ what: step }, n);
        if (n === 0) pending.delete(step);
      }
    }
    return done;
  }

  return { runOnce };
}

export type Retention = ReturnType<typeof createRetention>;
