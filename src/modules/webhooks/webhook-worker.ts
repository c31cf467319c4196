// The webhook delivery worker (D10–D12): the delivery queue for the shared leased-row worker
// (src/jobs/leased-worker.ts). Due deliveries are claimed with SKIP LOCKED under a lease, POSTed
// signed, and each attempt's result is group-committed; a failed attempt is scheduled again (with
// the receiver's Retry-After on 429/503) until the schedule runs out (FAILED). Delivery is at
// least once; receivers dedupe on webhook-id (the occurrence id, the same on every retry).

import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import { createLeasedWorker, type LeasedQueue } from '../../jobs/leased-worker.js';
import { throttledReport } from '../../jobs/throttled-report.js';
import type { Clock } from '../../lib/clock.js';
import type { LookupFn } from '../../lib/net/address-guard.js';
import { currentTraceparent, SpanKind, traced } from '../../lib/tracing.js';
import type { FeedRecorder } from '../feed/index.js';
import { decideRetry as decideRetryAfterFailure, findSigningSecret, type SigningKeys } from './attempt-rules.js';
import type { Outcome, WebhookMetrics } from './webhook-metrics.js';
import { createResultWriter } from './webhook-result-writer.js';
import { createWebhookSender, type SendResult } from './webhook-sender.js';
import { signDelivery } from './webhook-signing.js';
import * as repo from './webhooks-repository.js';

/** Spec 4.2: the platform appends this path to the registered base URL. */
export const ORDER_UPDATE_PATH = '/v1/orderUpdate';
/** D28: Open Delivery's webhook path, for a URL an opendelivery key registered. */
export const NEW_EVENT_PATH = '/v1/newEvent';

/** The path of a delivery follows the dialect its body was written in (stored with it). */
export const webhookPath = (profile: repo.WebhookProfile) =>
  profile === 'opendelivery' ? NEW_EVENT_PATH : ORDER_UPDATE_PATH;

export interface WebhookWorkerDeps {
  db: Db;
  clock: Clock;
  /** D36: the platform feed's `webhook ENDPOINT_HEALTH_CHANGED`, with the health write. */
  feed?: FeedRecorder;
  config: Pick<Config, 'env' | 'appId' | 'webhookRetryScheduleSec' | 'webhookLeaseSec' | 'webhookTimeoutMs'>;
  /** The signing key: the clear secret of an integration key (D10). */
  auth: SigningKeys;
  metrics: WebhookMetrics;
  /** DNS resolution for outgoing connections (tests); the system resolver otherwise. */
  lookup?: LookupFn;
  random?: () => number;
  /** Rows claimed per query, and attempts one process runs at once. */
  batchSize?: number;
  maxInFlight?: number;
  onError?: (error: unknown) => void;
  /** An endpoint started or stopped failing (its health, from the attempts just written). */
  onHealthChange?: (changes: repo.HealthChange[]) => Promise<void>;
}

/** How long a signing secret looked up is used for (D10; see `secretFor`). */
const SECRET_TTL_MS = 1_000;

export function createWebhookWorker(deps: WebhookWorkerDeps) {
  const { db, clock, config, metrics } = deps;
  const schedule = config.webhookRetryScheduleSec;
  const leaseMs = config.webhookLeaseSec * 1000;
  // An attempt always ends (timeout) well before its lease does, so a live worker's delivery is
  // never claimed twice; only a dead worker's is.
  const timeoutMs = Math.max(100, Math.min(config.webhookTimeoutMs, leaseMs - 1000));
  const newSender = () => createWebhookSender({ env: config.env, timeoutMs, lookup: deps.lookup });
  // Closed by stop() (its keep-alive sockets would hold the process open); made again on use.
  let sender: ReturnType<typeof createWebhookSender> | undefined;
  const batchSize = deps.batchSize ?? 100;
  const maxInFlight = deps.maxInFlight ?? 256;
  const onError = deps.onError ?? throttledReport('webhook');
  const writer = createResultWriter(db, {
    onHealthChange: deps.onHealthChange,
    feed: deps.feed,
    // Claimed rows leave `claimed` once their result is written: the rest are still being tried.
    running: () => claimed.size - writer.unwritten(),
  });

  const signingSecret = (merchantId: string, keyId: string | null) => findSigningSecret(deps.auth, merchantId, keyId);

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
      merchantId: row.merchant_id,
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

  /** The decisions that end a delivery: no further attempt. */
  const DELIVERED = { status: 'DELIVERED', nextAttemptAt: null, outcome: 'delivered' } as const;
  const FAILED = { status: 'FAILED', nextAttemptAt: null, outcome: 'failed' } as const;

  /** After a failed attempt: the schedule (with Retry-After on 429/503), or FAILED when it is exhausted. */
  const decideRetry = (row: repo.ClaimedRow, result: SendResult, now: Date) =>
    decideRetryAfterFailure(row.attempt_count, result, now, schedule, deps.random);

  // Signing secrets (D10), per merchant and key, for SECRET_TTL_MS. Looked up once per claimed
  // batch before, that lookup was a statement between every claim and its first request: with
  // the embedded database's statements queued on one session, a stall of the whole batch
  // (docs/benchmarks.md, "Figures of 2026-11-25, seventh session"). A key deleted in this process,
  // or learnt deleted from the revocation feed, empties the cache at once; a key deleted and not
  // yet learnt of signs for at most SECRET_TTL_MS more (a claimed batch always went out with the
  // secret it was claimed with, for as long as its attempts took).
  const secrets = new Map<string, { at: number; secret: Promise<string | undefined> }>();
  let keysSeen = deps.auth.signingKeysChanged?.() ?? 0;
  const secretFor = (merchantId: string, keyId: string | null): Promise<string | undefined> => {
    const keysNow = deps.auth.signingKeysChanged?.() ?? 0;
    if (keysNow !== keysSeen) {
      keysSeen = keysNow;
      secrets.clear();
    }
    const cacheKey = `${merchantId}/${keyId}`;
    const now = performance.now();
    const cached = secrets.get(cacheKey);
    if (cached && now - cached.at < SECRET_TTL_MS) return cached.secret;
    if (secrets.size > 10_000) secrets.clear(); // bounded by the merchants of one second
    const secret = signingSecret(merchantId, keyId);
    secrets.set(cacheKey, { at: now, secret });
    // A failed lookup is not kept: the next attempt asks again.
    secret.catch(() => secrets.get(cacheKey)?.secret === secret && secrets.delete(cacheKey));
    return secret;
  };

  async function attempt(row: repo.ClaimedRow, token: string) {
    const startedAt = clock.now();
    const fail = (error: string) => ({ ok: false, statusCode: null, error, durationMs: 0, responseSnippet: null });
    if (!row.orders_webhook_url) {
      await finish(
        row,
        token,
        { startedAt, target: null, result: fail('The merchant has no ordersWebhookURL registered') },
        FAILED,
      );
      return;
    }
    const target = `${row.orders_webhook_url}${webhookPath(row.profile)}`;
    if (row.webhook_disabled_at) {
      // D11: disabled by a 410 until the merchant registers again; kept FAILED, replayable.
      const error = `Webhook disabled after HTTP 410 at ${row.webhook_disabled_at.toISOString()}; the merchant must register its ordersWebhookURL again`;
      await finish(row, token, { startedAt, target, result: fail(error) }, FAILED);
      return;
    }
    const secret = await secretFor(row.merchant_id, row.webhook_key_id);
    if (secret === undefined) {
      const result = fail(
        'No active integration key to sign with: the key that registered the webhook was deleted and the merchant has no other',
      );
      await finish(row, token, { startedAt, target, result }, decideRetry(row, result, clock.now()));
      return;
    }
    const headers = signDelivery(config.appId, row, secret, clock.now());
    // Beside the Standard Webhooks headers: the delivery's span, in the order's trace.
    const traceparent = currentTraceparent();
    if (traceparent) headers.traceparent = traceparent;
    sender ??= newSender();
    const result = await sender.send(target, headers, row.body);
    const now = clock.now();
    if (result.ok) {
      await finish(row, token, { startedAt, target, result }, DELIVERED);
      return;
    }
    if (result.statusCode === 410) {
      // D11: the receiver says the endpoint is gone for good.
      await repo.disableMerchantWebhook(db, row.merchant_id, row.orders_webhook_url, now);
      result.error = 'HTTP 410 Gone: webhook disabled until the merchant registers its ordersWebhookURL again';
      await finish(row, token, { startedAt, target, result }, FAILED);
      return;
    }
    await finish(row, token, { startedAt, target, result }, decideRetry(row, result, now));
  }

  /** The delivery queue for the shared leased-row worker (src/jobs/leased-worker.ts). */
  const claimed = new Map<string, string>();
  const queue: LeasedQueue<repo.ClaimedRow> = {
    name: 'webhook-deliveries',
    channel: repo.WEBHOOK_CHANNEL,
    async claim(limit) {
      const { rows, token } = await claim(limit);
      for (const row of rows) claimed.set(row.id, token);
      return rows;
    },
    async handle(row) {
      const token = claimed.get(row.id) as string;
      try {
        // The delivery continues the trace of the change that recorded its event (tracing on).
        await traced(
          'webhook delivery',
          (span) => {
            span?.setAttributes({
              'cleaver.delivery_id': row.id,
              'cleaver.order_id': row.order_id,
              'cleaver.event_type': row.event_type,
              'cleaver.attempt': row.attempt_count,
            });
            return attempt(row, token);
          },
          { kind: SpanKind.PRODUCER, parent: row.traceparent },
        );
      } finally {
        claimed.delete(row.id);
      }
    },
    nextWakeAt: () => repo.nextDueAt(db, clock.now()),
  };
  const worker = createLeasedWorker(queue, {
    db,
    now: () => clock.now(),
    concurrency: maxInFlight,
    batchSize,
    // A result that could not be written (database down) leaves the lease to run out: the
    // delivery is tried again then — at least once.
    onError: (error) => onError(error),
  });

  /** One batch: claim what is due now, attempt it all, record the results. Returns how many. */
  const runOnce = async (limit = batchSize) => {
    const n = await worker.runOnce(limit);
    await writer.idle();
    return n;
  };

  /**
   * Runs until nothing is due within `maxWaitMs` (tests, CLI): waits for retries that come due
   * sooner than that, so a compressed schedule plays out to the end.
   */
  const drain = async (options: { maxWaitMs?: number } = {}) => {
    const n = await worker.drain({ maxWaitMs: options.maxWaitMs ?? 5_000 });
    // Endpoint health is written beside the results (webhook-result-writer.ts): done with it too.
    await writer.idle();
    return n;
  };

  return {
    runOnce,
    drain,
    /** Starts the worker: woken by NOTIFY at once, and by a timer for the next due retry. */
    start: () => worker.start(),
    health: () => worker.health(),
    async stop(): Promise<void> {
      await worker.stop();
      await writer.idle();
      const closing = sender;
      sender = undefined;
      await closing?.close();
    },
  };
}

export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
