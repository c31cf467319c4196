// `cleaver listen --forward-to URL` (sandbox only, like `stripe listen`): a developer without a
// public URL receives the merchant's webhooks on a local endpoint. While the CLI listens (a
// session in webhook_forwarding, kept alive by its long-polls), the workers leave the merchant's
// deliveries alone (webhooks-repository.ts claim) and the listener claims them instead, under the
// same lease. Each comes with the exact headers a worker would send, signed with the same key
// (D10); the CLI POSTs it to the local URL and reports the answer, which is recorded as the
// attempt with the worker's retry rules (D11: schedule, Retry-After, FAILED at the end). A local
// answer never disables the merchant's registered webhook (a 410 is retried like any failure).
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { decideRetry, findSigningSecret, type SigningKeys } from './attempt-rules.js';
import * as sessions from './webhook-forwarding-repository.js';
import { SNIPPET_BYTES } from './webhook-sender.js';
import { signDelivery } from './webhook-signing.js';
import * as repo from './webhooks-repository.js';

/** The longest a listener's poll waits for a delivery (below common proxy idle timeouts). */
export const MAX_WAIT_SEC = 25;
/** A session outlives the poll by this much: time for the listener to forward and ask again. */
const SESSION_GRACE_MS = 30_000;
/** Deliveries handed over per poll; the listener forwards them at once, each within `timeoutMs`. */
const CLAIM_LIMIT = 10;
const POLL_EVERY_MS = 250;

export interface ForwardingDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'appId' | 'webhookRetryScheduleSec' | 'webhookLeaseSec' | 'webhookTimeoutMs'> &
    Partial<Pick<Config, 'listenMaxWaitSec'>>;
  auth: SigningKeys;
  random?: () => number;
}

export interface Listener {
  merchantId: string;
  /** The integration key the CLI authenticated with. */
  keyId: string;
}

export interface ForwardedDelivery {
  deliveryId: string;
  leaseToken: string;
  attemptNo: number;
  webhookId: string;
  eventType: string;
  orderId: string;
  profile: repo.WebhookProfile;
  headers: Record<string, string>;
  body: string;
}

export interface ForwardedAnswer {
  leaseToken: string;
  statusCode: number | null;
  durationMs: number;
  responseSnippet?: string | null;
  error?: string | null;
  retryAfter?: string;
}

export function createWebhookForwarding(deps: ForwardingDeps) {
  const { db, clock, config } = deps;
  const leaseMs = config.webhookLeaseSec * 1000;
  // The listener must report within the lease, with room for the report's own round trip.
  const timeoutMs = Math.max(100, Math.min(config.webhookTimeoutMs, Math.floor(leaseMs / 2)));

  async function handOver(listener: Listener, rows: repo.ClaimedRow[], token: string): Promise<ForwardedDelivery[]> {
    const secrets = new Map<string, string | undefined>();
    const out: ForwardedDelivery[] = [];
    for (const row of rows) {
      // D10: the key that registered the URL; with none registered, the listener's own key.
      const keyId = row.webhook_key_id ?? listener.keyId;
      if (!secrets.has(keyId)) secrets.set(keyId, await findSigningSecret(deps.auth, row.merchant_id, keyId));
      const secret = secrets.get(keyId);
      if (secret === undefined) continue; // the lease runs out; offered again (never: the listener's key exists)
      out.push({
        deliveryId: row.id,
        leaseToken: token,
        attemptNo: row.attempt_count,
        webhookId: row.occurrence_id,
        eventType: row.event_type,
        orderId: row.order_id,
        profile: row.profile,
        headers: signDelivery(config.appId, row, secret, clock.now()),
        body: row.body,
      });
    }
    return out;
  }

  return {
    timeoutMs,

    /**
     * POST /v1/sandbox/listen: starts or keeps the session and waits up to `waitSec` for due
     * deliveries of the merchant; answers as soon as there are some (or with none at the end).
     */
    async listen(
      listener: Listener,
      input: { forwardTo: string; waitSec: number; signal?: AbortSignal },
    ): Promise<{ deliveries: ForwardedDelivery[]; timeoutMs: number; sessionUntil: string }> {
      const waitMs = Math.min(input.waitSec, config.listenMaxWaitSec ?? MAX_WAIT_SEC, MAX_WAIT_SEC) * 1000;
      const deadline = clock.now().getTime() + waitMs;
      const until = new Date(deadline + SESSION_GRACE_MS);
      await sessions.keepSession(db, { ...listener, forwardTo: input.forwardTo, now: clock.now(), until });
      for (let first = true; ; first = false) {
        const now = clock.now();
        // A listener that went away (killed, Ctrl-C) must not have deliveries claimed for it: they
        // would wait out their lease unseen, and a new listener of the same merchant (whose
        // session keeps this loop's alive) would miss them for that long.
        if (input.signal?.aborted) return { deliveries: [], timeoutMs, sessionUntil: until.toISOString() };
        const ended = !first && !(await sessions.extendSession(db, listener.merchantId, until));
        if (ended) return { deliveries: [], timeoutMs, sessionUntil: now.toISOString() };
        const token = randomUUID();
        const rows = await repo.claimDueDeliveries(db, {
          now,
          limit: CLAIM_LIMIT,
          leaseToken: token,
          leaseUntil: new Date(now.getTime() + leaseMs),
          forwardedMerchantId: listener.merchantId,
        });
        const deliveries = rows.length > 0 ? await handOver(listener, rows, token) : [];
        if (deliveries.length > 0 || now.getTime() >= deadline || input.signal?.aborted) {
          return { deliveries, timeoutMs, sessionUntil: until.toISOString() };
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
      }
    },

    /**
     * POST /v1/sandbox/listen/deliveries/{deliveryId}/attempts: the local endpoint's answer,
     * recorded as the attempt; a failure is retried on the schedule (offered to the listener
     * again when due, or to the registered URL once the session has ended).
     */
    async report(listener: Listener, deliveryId: string, answer: ForwardedAnswer) {
      const row = await sessions.findMerchantDelivery(db, listener.merchantId, deliveryId);
      if (!row) throw notFound('Webhook delivery not found');
      const lost = () =>
        conflict(
          'leaseToken: this delivery is no longer leased to this listener (its lease ran out and it will be offered again, or its answer was already reported)',
        );
      if (row.status !== 'PENDING' || row.lease_token !== answer.leaseToken) throw lost();
      const session = await sessions.findSession(db, listener.merchantId);
      const now = clock.now();
      const ok = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
      const decision = ok
        ? { status: 'DELIVERED' as const, nextAttemptAt: null }
        : decideRetry(row.attempt_count, answer, now, config.webhookRetryScheduleSec, deps.random);
      const code = answer.statusCode;
      const error = ok
        ? null
        : code === null
          ? (answer.error ?? 'The local endpoint did not answer')
          : code >= 300 && code < 400
            ? `Redirect (HTTP ${code}) not followed`
            : `HTTP ${code}`;
      const written = await repo.recordAttempts(db, [
        {
          deliveryId,
          leaseToken: answer.leaseToken,
          attemptNo: row.attempt_count,
          startedAt: row.updated_at,
          durationMs: Math.max(0, Math.round(answer.durationMs)),
          targetUrl: session?.forward_to ?? null,
          statusCode: code,
          error: error?.slice(0, 1000) ?? null,
          responseSnippet: answer.responseSnippet?.slice(0, SNIPPET_BYTES) ?? null,
          status: decision.status,
          nextAttemptAt: decision.nextAttemptAt,
          at: now,
        },
      ]);
      if (!written.has(deliveryId)) throw lost();
      await sessions.extendSession(db, listener.merchantId, new Date(now.getTime() + SESSION_GRACE_MS));
      return {
        deliveryId,
        attemptNo: row.attempt_count,
        status: decision.status,
        nextAttemptAt: decision.nextAttemptAt?.toISOString() ?? null,
      };
    },

    /** DELETE /v1/sandbox/listen: the workers deliver to the registered URL again, now. */
    async stop(listener: Listener): Promise<void> {
      await sessions.endSession(db, listener.merchantId);
      await db.query(`SELECT pg_notify('${repo.WEBHOOK_CHANNEL}', '')`);
    },
  };
}

export type WebhookForwarding = ReturnType<typeof createWebhookForwarding>;
