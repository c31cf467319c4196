import type { Db } from '../../db/db.js';
import { type FeedRecorder, noFeed } from '../feed/index.js';
import * as repo from './webhooks-repository.js';

type Outcome = { merchantId: string; ok: boolean; error: string | null; at: Date };

/**
 * Group commit of attempt results: whatever finished while the previous write ran goes out in
 * the next one statement, so the write rate follows the delivery rate without one round trip per
 * delivery. A result counts as recorded (and its slot and order are freed) once written.
 *
 * Endpoint health follows the same results through its own group commit, beside the results
 * rather than after each of them: a results write used to wait for the previous batch's health
 * statement, which made the writer's cycle 1.6× longer and capped a PostgreSQL worker near
 * 4,700 deliveries/s (docs/benchmarks.md, "Webhooks"). It is also written at most once every
 * `healthEveryMs`, folding every outcome since the last statement: health is a summary for
 * operators, and one statement per results batch was 18 % of a PGlite drain (docs/benchmarks.md,
 * "Figures of 2026-11-25, sixth session"). A state change is reported that much later at most.
 *
 * While other attempts are still running, a results write waits up to `gatherMs` for
 * `gatherTarget` results rather than going out with whatever finished during the previous write.
 * Each statement has a fixed cost, and on the embedded database the previous write holds the
 * event loop, so nothing finishes during it: a saturated PGlite worker wrote 16 results per
 * statement (docs/benchmarks.md, "Figures of 2026-11-25, seventh session"). When no other attempt
 * is running (`running()` is 0), nothing more is coming and the write goes out at once, so a lone
 * delivery's result is not delayed.
 */
export function createResultWriter(
  db: Db,
  options: {
    maxBatch?: number;
    /** Results a write waits for while other attempts run, and for how long at most. */
    gatherTarget?: number;
    gatherMs?: number;
    /** Attempts running whose results have not reached the writer yet. */
    running?: () => number;
    healthEveryMs?: number;
    onHealthChange?: (changes: repo.HealthChange[]) => Promise<void>;
    /** D36: each change of an endpoint's state is a feed item, written with the health. */
    feed?: FeedRecorder;
  } = {},
) {
  const feed = options.feed ?? noFeed;
  const maxBatch = options.maxBatch ?? 500;
  const healthEveryMs = options.healthEveryMs ?? 250;
  const gatherTarget = options.gatherTarget ?? 64;
  const gatherMs = options.gatherMs ?? 10;
  const running = options.running ?? (() => 0);
  let buffer: Array<{ result: repo.AttemptResult; done: (error?: unknown) => void }> = [];
  let busy = false;
  let flushScheduled = false;
  let writing = 0;
  let gatherTimer: NodeJS.Timeout | undefined;
  let outcomes: Outcome[] = [];
  let healthBusy = false;
  let healthTimer: NodeJS.Timeout | undefined;
  let lastHealthAt = Number.NEGATIVE_INFINITY;
  let idleWaiters: Array<() => void> = [];

  const isIdle = () =>
    !busy &&
    !flushScheduled &&
    gatherTimer === undefined &&
    !healthBusy &&
    healthTimer === undefined &&
    buffer.length === 0 &&
    outcomes.length === 0;
  const settle = () => {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  /** Schedules the next write: at once when enough results wait or no more are coming. */
  const scheduleFlush = () => {
    if (busy || flushScheduled || buffer.length === 0) return;
    if (buffer.length >= gatherTarget || running() === 0) {
      if (gatherTimer !== undefined) clearTimeout(gatherTimer);
      gatherTimer = undefined;
      flushScheduled = true;
      setImmediate(() => {
        flushScheduled = false;
        void flush();
      });
    } else {
      gatherTimer ??= setTimeout(() => {
        gatherTimer = undefined;
        void flush();
      }, gatherMs);
    }
  };

  const flush = async () => {
    if (busy || buffer.length === 0) return settle();
    busy = true;
    const batch = buffer.slice(0, maxBatch);
    buffer = buffer.slice(maxBatch);
    writing = batch.length;
    try {
      await repo.recordAttempts(
        db,
        batch.map((b) => b.result),
      );
      for (const b of batch) b.done();
      followHealth(batch.map((b) => b.result));
    } catch (error) {
      for (const b of batch) b.done(error);
    } finally {
      busy = false;
      writing = 0;
      scheduleFlush();
      settle();
    }
  };

  /** Each endpoint's health follows its attempts; a change is reported. Never fails a write. */
  function followHealth(results: repo.AttemptResult[]): void {
    for (const r of results) {
      if (r.merchantId && r.targetUrl !== null) {
        outcomes.push({ merchantId: r.merchantId, ok: r.status === 'DELIVERED', error: r.error, at: r.startedAt });
      }
    }
    void writeHealth();
  }

  async function writeHealth(): Promise<void> {
    if (healthBusy || healthTimer !== undefined || outcomes.length === 0) return;
    const wait = lastHealthAt + healthEveryMs - performance.now();
    if (wait > 0) {
      healthTimer = setTimeout(() => {
        healthTimer = undefined;
        void writeHealth();
      }, wait);
      return;
    }
    healthBusy = true;
    lastHealthAt = performance.now();
    // Everything gathered since the last statement, in order: only each merchant's latest
    // outcome counts, and a failure keeps the earliest failing time of the batch.
    const batch = outcomes;
    outcomes = [];
    try {
      const changes = await db.transaction(async (tx) => {
        const changed = await repo.updateEndpointHealth(tx, batch);
        for (const c of changed) {
          // An endpoint's first answer being a success is no news: only failing, and recovering.
          if (c.previous === null && c.state === 'healthy') continue;
          const lastAt = batch.filter((o) => o.merchantId === c.merchant_id).at(-1)?.at ?? null;
          await feed(tx, {
            kind: 'webhook',
            type: 'ENDPOINT_HEALTH_CHANGED',
            merchantId: c.merchant_id,
            data: {
              state: c.state,
              since: (c.state === 'failing' ? c.failing_since : lastAt)?.toISOString() ?? null,
              ...(c.last_error ? { lastError: c.last_error } : {}),
            },
          });
        }
        return changed;
      });
      if (changes.length > 0) await options.onHealthChange?.(changes);
    } catch {
      // Health is derived: the next attempt's write brings it up to date.
    } finally {
      healthBusy = false;
      if (outcomes.length > 0) void writeHealth();
      settle();
    }
  }

  return {
    write(result: repo.AttemptResult): Promise<void> {
      return new Promise((resolve, reject) => {
        buffer.push({ result, done: (error) => (error === undefined ? resolve() : reject(error)) });
        scheduleFlush();
      });
    },
    /** Results handed to the writer and not yet written. */
    unwritten: () => buffer.length + writing,
    /** Resolves once every result and the health they imply are written (drain, stop). */
    idle(): Promise<void> {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
