// Webhook delivery (spec 6, D8, D10–D12). Event recording calls `enqueueForEvent` inside its
// transaction (transactional outbox); workers claim due rows with SKIP LOCKED and a lease, POST
// them signed, and record every attempt. Delivery is at least once; receivers dedupe on
// webhook-id (the occurrence id, the same on every retry and replay).
import { randomUUID } from 'node:crypto';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { RecordedEvent } from '../events/event-contract.js';
import { nextAttemptDelayMs, parseRetryAfter } from './retry-schedule.js';
import type { LookupFn } from './ssrf-guard.js';
import { createWebhookSender, type SendResult } from './webhook-sender.js';
import { signWebhook } from './webhook-signing.js';
import * as repo from './webhooks-repository.js';

export const deliveryNotFound = () => notFound('Webhook delivery not found');

/** Spec 4.2: the platform appends this path to the registered base URL. */
export const ORDER_UPDATE_PATH = '/v1/orderUpdate';

export interface WebhooksDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'env' | 'appId' | 'webhookRetryScheduleSec' | 'webhookLeaseSec' | 'webhookTimeoutMs'>;
  /** The signing key: the clear secret of an integration key (D10). */
  auth: {
    signingSecret(keyId: string): Promise<string | undefined>;
    listIntegrationKeys(merchantId: string): Promise<Array<{ id: string; created_at: Date }>>;
  };
  /** Where the webhook metrics go (/metrics); none = not exported. */
  registry?: Registry;
  /** DNS resolution for outgoing connections (tests); the system resolver otherwise. */
  lookup?: LookupFn;
  random?: () => number;
  /** Rows claimed per query, and attempts one process runs at once. */
  batchSize?: number;
  maxInFlight?: number;
  onError?: (error: unknown) => void;
}

export type AttemptView = {
  attemptNo: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  target: string | null;
  responseSnippet: string | null;
};

export type DeliveryView = {
  id: string;
  webhookId: string;
  merchantId: string;
  orderId: string;
  eventType: string;
  event: Record<string, unknown>;
  target: string | null;
  status: repo.DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  attempts: AttemptView[];
};

type Outcome = 'delivered' | 'retry_scheduled' | 'failed';

function createWebhookMetrics(registry: Registry | undefined, db: Db) {
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

/**
 * Group commit of attempt results: whatever finished while the previous write ran goes out in
 * the next one statement, so the write rate follows the delivery rate without one round trip per
 * delivery. A result counts as recorded (and its slot and order are freed) once written.
 */
function createResultWriter(db: Db, maxBatch = 500) {
  let buffer: Array<{ result: repo.AttemptResult; done: (error?: unknown) => void }> = [];
  let busy = false;
  const flush = async () => {
    if (busy || buffer.length === 0) return;
    busy = true;
    const batch = buffer.slice(0, maxBatch);
    buffer = buffer.slice(maxBatch);
    try {
      await repo.recordAttempts(
        db,
        batch.map((b) => b.result),
      );
      for (const b of batch) b.done();
    } catch (error) {
      for (const b of batch) b.done(error);
    } finally {
      busy = false;
      if (buffer.length > 0) setImmediate(flush);
    }
  };
  return {
    write(result: repo.AttemptResult): Promise<void> {
      return new Promise((resolve, reject) => {
        buffer.push({ result, done: (error) => (error === undefined ? resolve() : reject(error)) });
        if (buffer.length === 1) setImmediate(flush);
      });
    },
  };
}

let lastLoggedAt = 0;
/** Default error sink: the database being away must not flood the log (one line per 10 s). */
function logThrottled(error: unknown): void {
  const now = Date.now();
  if (now - lastLoggedAt < 10_000) return;
  lastLoggedAt = now;
  process.stderr.write(`webhook worker: ${(error as Error)?.message ?? String(error)} (retrying)\n`);
}

export function createWebhooksService(deps: WebhooksDeps) {
  const { db, clock, config } = deps;
  const schedule = config.webhookRetryScheduleSec;
  const leaseMs = config.webhookLeaseSec * 1000;
  // An attempt always ends (timeout) well before its lease does, so a live worker's delivery is
  // never claimed twice; only a dead worker's is.
  const timeoutMs = Math.max(100, Math.min(config.webhookTimeoutMs, leaseMs - 1000));
  const newSender = () => createWebhookSender({ env: config.env, timeoutMs, lookup: deps.lookup });
  // Closed by stop() (its keep-alive sockets would hold the process open); made again on use.
  let sender: ReturnType<typeof createWebhookSender> | undefined;
  const metrics = createWebhookMetrics(deps.registry, db);
  const batchSize = deps.batchSize ?? 100;
  const maxInFlight = deps.maxInFlight ?? 256;
  const onError = deps.onError ?? logThrottled;
  const writer = createResultWriter(db);

  /** D10: the key that registered the URL; if it was deleted, the newest other active key. */
  async function signingSecret(merchantId: string, keyId: string | null): Promise<string | undefined> {
    if (keyId) {
      const secret = await deps.auth.signingSecret(keyId);
      if (secret !== undefined) return secret;
    }
    const keys = await deps.auth.listIntegrationKeys(merchantId);
    const newest = [...keys].sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
    for (const key of newest) {
      const secret = await deps.auth.signingSecret(key.id);
      if (secret !== undefined) return secret;
    }
    return undefined;
  }

  async function claim(limit: number): Promise<{ rows: repo.ClaimedRow[]; token: string }> {
    const now = clock.now();
    const token = randomUUID();
    const rows = await repo.claimDueDeliveries(db, {
      now,
      limit,
      leaseToken: token,
      leaseUntil: new Date(now.getTime() + leaseMs),
    });
    return { rows, token };
  }

  async function finish(
    row: repo.ClaimedRow,
    token: string,
    attempt: { startedAt: Date; target: string | null; result: SendResult },
    decision: { status: repo.DeliveryStatus; nextAttemptAt: Date | null; outcome: Outcome },
  ): Promise<void> {
    const { result } = attempt;
    await writer.write({
      deliveryId: row.id,
      leaseToken: token,
      attemptNo: row.attempt_count,
      startedAt: attempt.startedAt,
      durationMs: result.durationMs,
      targetUrl: attempt.target,
      statusCode: result.statusCode,
      error: result.error?.slice(0, 1000) ?? null,
      responseSnippet: result.responseSnippet,
      status: decision.status,
      nextAttemptAt: decision.nextAttemptAt,
      at: clock.now(),
    });
    metrics.deliveries.inc({ outcome: decision.outcome });
    const code = result.statusCode;
    metrics.attemptDuration.observe(
      { result: code === null ? 'error' : `${Math.floor(code / 100)}xx` },
      result.durationMs / 1000,
    );
  }

  /** After a failed attempt: the schedule (with Retry-After on 429/503), or FAILED when it is exhausted. */
  function decideRetry(row: repo.ClaimedRow, result: SendResult, now: Date) {
    const retryAfterMs =
      result.statusCode === 429 || result.statusCode === 503 ? parseRetryAfter(result.retryAfter, now) : undefined;
    const delay = nextAttemptDelayMs(row.attempt_count, schedule, { retryAfterMs, random: deps.random });
    if (delay === undefined) return { status: 'FAILED' as const, nextAttemptAt: null, outcome: 'failed' as const };
    return {
      status: 'PENDING' as const,
      nextAttemptAt: new Date(now.getTime() + delay),
      outcome: 'retry_scheduled' as const,
    };
  }

  async function attempt(row: repo.ClaimedRow, token: string, secrets: Map<string, Promise<string | undefined>>) {
    const startedAt = clock.now();
    const fail = (error: string) => ({ ok: false, statusCode: null, error, durationMs: 0, responseSnippet: null });
    if (!row.orders_webhook_url) {
      await finish(
        row,
        token,
        { startedAt, target: null, result: fail('The merchant has no ordersWebhookURL registered') },
        { status: 'FAILED', nextAttemptAt: null, outcome: 'failed' },
      );
      return;
    }
    const target = `${row.orders_webhook_url}${ORDER_UPDATE_PATH}`;
    if (row.webhook_disabled_at) {
      // D11: disabled by a 410 until the merchant registers again; kept FAILED, replayable.
      const error = `Webhook disabled after HTTP 410 at ${row.webhook_disabled_at.toISOString()}; the merchant must register its ordersWebhookURL again`;
      await finish(
        row,
        token,
        { startedAt, target, result: fail(error) },
        { status: 'FAILED', nextAttemptAt: null, outcome: 'failed' },
      );
      return;
    }
    const cacheKey = `${row.merchant_id}/${row.webhook_key_id}`;
    let secretPromise = secrets.get(cacheKey);
    if (!secretPromise) {
      secretPromise = signingSecret(row.merchant_id, row.webhook_key_id);
      secrets.set(cacheKey, secretPromise);
    }
    const secret = await secretPromise;
    if (secret === undefined) {
      const result = fail(
        'No active integration key to sign with: the key that registered the webhook was deleted and the merchant has no other',
      );
      await finish(row, token, { startedAt, target, result }, decideRetry(row, result, clock.now()));
      return;
    }
    const headers = signWebhook({
      appId: config.appId,
      merchantId: row.merchant_id,
      webhookId: row.occurrence_id,
      timestampSec: Math.floor(clock.now().getTime() / 1000),
      body: row.body,
      secret,
    });
    sender ??= newSender();
    const result = await sender.send(target, headers, row.body);
    const now = clock.now();
    if (result.ok) {
      await finish(
        row,
        token,
        { startedAt, target, result },
        { status: 'DELIVERED', nextAttemptAt: null, outcome: 'delivered' },
      );
      return;
    }
    if (result.statusCode === 410) {
      // D11: the receiver says the endpoint is gone for good.
      await repo.disableMerchantWebhook(db, row.merchant_id, row.orders_webhook_url, now);
      result.error = 'HTTP 410 Gone: webhook disabled until the merchant registers its ordersWebhookURL again';
      await finish(
        row,
        token,
        { startedAt, target, result },
        { status: 'FAILED', nextAttemptAt: null, outcome: 'failed' },
      );
      return;
    }
    await finish(row, token, { startedAt, target, result }, decideRetry(row, result, now));
  }

  /** Starts the attempts of claimed rows; each promise settles once its result is written. */
  function attemptAll(rows: repo.ClaimedRow[], token: string): Array<Promise<void>> {
    const secrets = new Map<string, Promise<string | undefined>>();
    return rows.map((row) =>
      attempt(row, token, secrets).catch((error) => {
        // Could not even record the result (database down): the lease runs out and the row is
        // tried again — at least once.
        onError(error);
      }),
    );
  }

  /** One batch: claim what is due now, attempt it all, record the results. Returns how many. */
  async function runOnce(limit = batchSize): Promise<number> {
    const { rows, token } = await claim(limit);
    await Promise.all(attemptAll(rows, token));
    return rows.length;
  }

  /**
   * Runs until nothing is due within `maxWaitMs` (tests, CLI): waits for retries that come due
   * sooner than that, so a compressed schedule plays out to the end.
   */
  async function drain(options: { maxWaitMs?: number } = {}): Promise<number> {
    const maxWaitMs = options.maxWaitMs ?? 5_000;
    let total = 0;
    for (;;) {
      const n = await runOnce();
      total += n;
      if (n > 0) continue;
      const due = await repo.nextDueAt(db);
      if (!due) return total;
      const wait = due.getTime() - clock.now().getTime();
      if (wait > maxWaitMs) return total;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait)));
    }
  }

  // ---- the background worker -------------------------------------------------------------
  let running = false;
  let inFlight = 0;
  let pumping = false;
  let pumpAgain = false;
  let wakeScheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  const active = new Set<Promise<void>>();
  /** A lost NOTIFY (connection drop) costs at most this much delay. */
  const SAFETY_POLL_MS = 30_000;

  function wake(): void {
    if (!running || wakeScheduled) return;
    wakeScheduled = true;
    setImmediate(() => {
      wakeScheduled = false;
      void pump();
    });
  }

  async function pump(): Promise<void> {
    if (!running) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    let retryInMs: number | undefined;
    try {
      do {
        pumpAgain = false;
        while (running && inFlight < maxInFlight) {
          const { rows, token } = await claim(Math.min(batchSize, maxInFlight - inFlight));
          if (rows.length === 0) break;
          for (const started of attemptAll(rows, token)) {
            inFlight += 1;
            const work = started.finally(() => {
              inFlight -= 1;
              active.delete(work);
              // A finished delivery may unblock the next one of its order, and frees a slot.
              wake();
            });
            active.add(work);
          }
        }
      } while (pumpAgain && running);
      // Saturated: every finishing attempt wakes the pump, so no timer (no polling while full).
      if (running && inFlight < maxInFlight) {
        const due = await repo.nextDueAt(db);
        const wait = due ? due.getTime() - clock.now().getTime() : SAFETY_POLL_MS;
        // A row due now that the claim did not get is locked by another worker's claim for a
        // moment: look again shortly rather than spin.
        retryInMs = Math.min(Math.max(wait, 5), SAFETY_POLL_MS);
      }
    } catch (error) {
      onError(error);
      retryInMs = 1_000; // database unreachable: try again shortly
    } finally {
      pumping = false;
    }
    if (running && retryInMs !== undefined) {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        void pump();
      }, retryInMs);
      timer.unref();
    }
  }

  return {
    /**
     * The EventListener (event-contract.ts): called inside the transaction that records the
     * event. One delivery per occurrence for a merchant with an enabled webhook URL; events
     * that are not polled (D8's CANCELLATION_REQUEST_DENIED) are delivered too.
     */
    async enqueueForEvent(tx: Queryable, event: RecordedEvent): Promise<void> {
      await repo.insertDelivery(tx, {
        id: newId(),
        merchantId: event.merchantId,
        orderId: event.orderId,
        occurrenceId: event.occurrenceId,
        eventType: event.eventType,
        body: JSON.stringify(event.record),
        at: clock.now(),
      });
    },

    runOnce,
    drain,

    /** Starts the worker: woken by NOTIFY at once, and by a timer for the next due retry. */
    async start(): Promise<void> {
      if (running) return;
      running = true;
      unlisten = await db.listen(repo.WEBHOOK_CHANNEL, wake, wake);
      wake();
    },

    async stop(): Promise<void> {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await unlisten?.();
      unlisten = undefined;
      while (pumping) await new Promise((resolve) => setTimeout(resolve, 5));
      await Promise.all([...active]);
      const closing = sender;
      sender = undefined;
      await closing?.close();
    },

    /** GET /admin/v1/merchants/{merchantId}/webhookDeliveries */
    async listMerchantDeliveries(
      merchantId: string,
      filter: { status?: repo.DeliveryStatus; limit?: number },
    ): Promise<DeliveryView[]> {
      const rows = await repo.listMerchantDeliveries(db, merchantId, {
        status: filter.status,
        limit: filter.limit ?? 100,
      });
      return toViews(rows);
    },

    /** An order's deliveries, oldest first, for the operator order timeline. */
    async listOrderDeliveries(orderId: string): Promise<DeliveryView[]> {
      return toViews(await repo.listOrderDeliveries(db, orderId));
    },

    /** POST /admin/v1/webhookDeliveries/{deliveryId}/retry: again now, same webhook-id. */
    async retryDelivery(deliveryId: string): Promise<DeliveryView> {
      const existing = await repo.findDelivery(db, deliveryId);
      if (!existing) throw deliveryNotFound();
      const merchant = await repo.findMerchantWebhook(db, existing.merchant_id);
      if (!merchant?.orders_webhook_url) throw conflict('The merchant has no ordersWebhookURL registered');
      if (merchant.webhook_disabled_at) {
        throw conflict('The merchant webhook is disabled after HTTP 410 until the merchant registers again');
      }
      const row = await repo.requeueDelivery(db, deliveryId, clock.now());
      if (!row) throw conflict('An attempt of this delivery is in progress');
      const [view] = await toViews([row]);
      return view;
    },

    metrics,
  };

  async function toViews(rows: repo.DeliveryRow[]): Promise<DeliveryView[]> {
    const attempts = await repo.listAttempts(
      db,
      rows.map((r) => r.id),
    );
    const byDelivery = new Map<string, repo.AttemptRow[]>();
    for (const a of attempts) {
      const list = byDelivery.get(a.delivery_id) ?? [];
      list.push(a);
      byDelivery.set(a.delivery_id, list);
    }
    const merchantUrls = new Map<string, string | null>();
    for (const r of rows) {
      if (!merchantUrls.has(r.merchant_id)) {
        const m = await repo.findMerchantWebhook(db, r.merchant_id);
        merchantUrls.set(r.merchant_id, m?.orders_webhook_url ?? null);
      }
    }
    return rows.map((r) => {
      const list = byDelivery.get(r.id) ?? [];
      const base = merchantUrls.get(r.merchant_id);
      // A pending delivery goes to the URL registered now; a finished one went where it last went.
      const lastTarget = [...list].reverse().find((a) => a.target_url)?.target_url ?? null;
      const target = r.status === 'PENDING' && base ? `${base}${ORDER_UPDATE_PATH}` : (lastTarget ?? null);
      const inFlight = r.status === 'PENDING' && r.lease_token !== null;
      return {
        id: r.id,
        webhookId: r.occurrence_id,
        merchantId: r.merchant_id,
        orderId: r.order_id,
        eventType: r.event_type,
        event: JSON.parse(r.body) as Record<string, unknown>,
        target,
        status: r.status,
        attemptCount: r.attempt_count,
        // While an attempt runs, next_attempt_at is the lease end: "now" is the honest answer.
        nextAttemptAt:
          r.status === 'PENDING' && r.next_attempt_at
            ? (inFlight ? r.updated_at : r.next_attempt_at).toISOString()
            : null,
        lastStatusCode: r.last_status_code,
        lastError: r.last_error,
        createdAt: r.created_at.toISOString(),
        deliveredAt: r.delivered_at?.toISOString() ?? null,
        attempts: list.map((a) => ({
          attemptNo: a.attempt_no,
          at: a.started_at.toISOString(),
          statusCode: a.status_code,
          error: a.error,
          durationMs: a.duration_ms,
          target: a.target_url,
          responseSnippet: a.response_snippet,
        })),
      };
    });
  }
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
