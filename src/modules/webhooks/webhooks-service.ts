// Webhook delivery (spec 6, D8, D10–D12) as other modules use it: event recording calls
// `enqueueForEvent` inside its transaction (transactional outbox); the worker
// (webhook-worker.ts) delivers; the operator lists and replays deliveries.
import type { Registry } from 'prom-client';
import type { Db, Queryable } from '../../db/db.js';
import { decodeSeqCursor, page } from '../../lib/cursor.js';
import { conflict, notFound } from '../../lib/errors.js';
import { firstRow } from '../../lib/first-row.js';
import { newId } from '../../lib/ids.js';
import type { RecordedEvent } from '../events/index.js';
import type { NoticeInput } from '../notices/index.js';
import { createWebhookForwarding } from './webhook-forwarding.js';
import { createWebhookMetrics } from './webhook-metrics.js';
import { type DeliveryView, toViews } from './webhook-views.js';
import {
  createWebhookWorker,
  NEW_EVENT_PATH,
  ORDER_UPDATE_PATH,
  type WebhookWorkerDeps,
  webhookPath,
} from './webhook-worker.js';
import * as repo from './webhooks-repository.js';

export type { AttemptView, DeliveryView } from './webhook-views.js';
export { NEW_EVENT_PATH, ORDER_UPDATE_PATH };

export const deliveryNotFound = () => notFound('Webhook delivery not found');

export interface WebhooksDeps extends Omit<WebhookWorkerDeps, 'metrics' | 'onHealthChange'> {
  db: Db;
  /** Where the webhook metrics go (/metrics); none = not exported. */
  registry?: Registry;
  /** Where endpoint health changes are told to operators. */
  notices?: { raise(notices: NoticeInput[]): Promise<void> };
  /** An endpoint failing longer than this is disabled (0: never). */
  disableAfterHours?: number;
}

export type EndpointState = 'healthy' | 'failing' | 'disabled' | 'unknown';

export function createWebhooksService(deps: WebhooksDeps) {
  const { db, clock } = deps;
  const metrics = createWebhookMetrics(deps.registry, db);

  /**
   * An endpoint that starts or stops failing is an operator notice. A first attempt that succeeds
   * is a change too (from no health at all), but nothing recovered: no notice.
   */
  async function noticeHealthChanges(changes: repo.HealthChange[]): Promise<void> {
    const at = clock.now();
    const noticed = changes.filter((c) => c.state === 'failing' || c.previous === 'failing');
    if (noticed.length === 0) return;
    await deps.notices?.raise(
      noticed.map((c) =>
        c.state === 'failing'
          ? {
              at,
              kind: 'webhook.failing',
              merchantId: c.merchant_id,
              message: `Webhook endpoint ${c.url ?? ''} is failing: ${c.last_error ?? 'no answer'}`,
              detail: {
                ...(c.url ? { url: c.url } : {}),
                ...(c.last_error ? { error: c.last_error } : {}),
                ...(c.failing_since ? { failingSince: c.failing_since.toISOString() } : {}),
              },
            }
          : {
              at,
              kind: 'webhook.recovered',
              merchantId: c.merchant_id,
              message: `Webhook endpoint ${c.url ?? ''} answers again`,
              detail: c.url ? { url: c.url } : {},
            },
      ),
    );
  }

  const worker = createWebhookWorker({ ...deps, metrics, onHealthChange: noticeHealthChanges });
  /** `cleaver listen` (sandbox only): deliveries handed to a developer's CLI instead of the URL. */
  const forwarding = createWebhookForwarding(deps);

  function toHealth(r: repo.EndpointHealthRow) {
    const iso = (d: Date | null) => (d ? d.toISOString() : null);
    const state: EndpointState = r.disabled_at ? 'disabled' : (r.state ?? 'unknown');
    return {
      merchantId: r.merchant_id,
      // D40: the address events go to (a URL an opendelivery key registered gets /v1/newEvent).
      url: r.url ? `${r.url}${webhookPath(r.profile ?? 'cleaver')}` : null,
      state,
      failingSince: iso(r.failing_since),
      lastError: r.last_error,
      lastSuccessAt: iso(r.last_success_at),
      lastAttemptAt: iso(r.last_attempt_at),
      disabledAt: iso(r.disabled_at),
      disabledReason: r.disabled_reason,
    };
  }

  /** Bulk replays refuse what a single retry refuses: no URL, or a disabled webhook. */
  async function requeue(merchantId: string, filter: { failedOnly: boolean; since: Date | null }) {
    const merchant = await repo.findMerchantWebhook(db, merchantId);
    if (!merchant) throw notFound('Merchant not found');
    if (!merchant.orders_webhook_url) throw conflict('The merchant has no ordersWebhookURL registered');
    if (merchant.webhook_disabled_at) {
      throw conflict('The merchant webhook is disabled until the merchant registers its ordersWebhookURL again');
    }
    return { requeued: await repo.requeueMerchantDeliveries(db, merchantId, filter, clock.now()) };
  }

  return {
    /**
     * The EventListener (event-contract.ts): called inside the transaction that records the
     * event. One delivery per occurrence for a merchant with an enabled webhook URL; events
     * that are not polled (D8's CANCELLATION_REQUEST_DENIED) are delivered too, except to a URL
     * an opendelivery key registered (D28: one notification per denial).
     *
     * The body is fixed here, at enqueue time, in the dialect of the key that registered the URL
     * (D28): it is the exact bytes signed on every attempt and replay, under the same webhook-id,
     * so a retry never changes shape; a profile changed later applies to the events after it. Both
     * dialects are serialised (a few hundred bytes each) and the statement keeps one.
     */
    async enqueueForEvent(tx: Queryable, event: RecordedEvent): Promise<void> {
      const cleaver = JSON.stringify(event.record);
      await repo.insertDelivery(tx, {
        id: newId(),
        merchantId: event.merchantId,
        orderId: event.orderId,
        occurrenceId: event.occurrenceId,
        eventType: event.eventType,
        bodies: {
          cleaver,
          opendelivery: event.openDeliveryRecord ? JSON.stringify(event.openDeliveryRecord) : cleaver,
        },
        cleaverOnly: !event.polled,
        optIn: event.optIn === true,
        at: clock.now(),
      });
    },

    runOnce: worker.runOnce,
    drain: worker.drain,
    start: worker.start,
    health: worker.health,
    stop: worker.stop,

    /**
     * GET /admin/v1/merchants/{merchantId}/webhookDeliveries: newest first, a keyset page at a
     * time (operator-api.md#lists); `next` is the cursor of the following page, if any. Without a
     * merchant, every merchant's (the console's deliveries page).
     */
    async listMerchantDeliveries(
      merchantId: string | undefined,
      filter: { status?: repo.DeliveryStatus; orderId?: string; cursor?: string; limit?: number },
    ): Promise<{ items: DeliveryView[]; next: string | null }> {
      const limit = filter.limit ?? 100;
      const rows = await repo.listMerchantDeliveries(db, merchantId, {
        status: filter.status,
        orderId: filter.orderId,
        beforeSeq: decodeSeqCursor(filter.cursor),
        limit: limit + 1,
      });
      const { items, next } = page(rows, limit, (d) => String(d.seq));
      return { items: await toViews(db, items), next };
    },

    /** Attempts per day in the operator's zone: success rate and latency (console charts). */
    attemptsByDay: (merchantId: string, since: Date, zone: string) => repo.attemptsByDay(db, merchantId, since, zone),
    countDeliveries: (merchantId: string | undefined, status: repo.DeliveryStatus, cap: number) =>
      repo.countDeliveries(db, merchantId, status, cap),

    /** An order's deliveries, oldest first, for the operator order timeline. */
    async listOrderDeliveries(orderId: string): Promise<DeliveryView[]> {
      return toViews(db, await repo.listOrderDeliveries(db, orderId));
    },

    /** The console's links from an order's deliveries to their traces: delivery id → traceparent. */
    orderDeliveryTraces: (orderId: string) => repo.orderDeliveryTraces(db, orderId),

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
      return firstRow(await toViews(db, [row]), 'view of the requeued delivery');
    },

    // ---- endpoint health and bulk actions (issue "Running for years") ----

    /** Each merchant's endpoint: healthy, failing (since, last error), disabled (why), or unknown. */
    async endpointHealth(merchantIds: string[]) {
      return (await repo.endpointHealthOf(db, merchantIds)).map(toHealth);
    },

    /**
     * GET /v1/developer/webhooks: the merchant's latest attempts, newest first, with
     * the delivery each belongs to: what the POS's own endpoint was sent and answered.
     */
    async recentAttempts(merchantId: string, limit: number) {
      const iso = (d: Date) => d.toISOString();
      return (await repo.recentAttempts(db, merchantId, limit)).map((a) => ({
        deliveryId: a.delivery_id,
        webhookId: a.occurrence_id,
        orderId: a.order_id,
        eventType: a.event_type,
        deliveryStatus: a.delivery_status,
        attemptNo: a.attempt_no,
        at: iso(a.started_at),
        statusCode: a.status_code,
        error: a.error,
        durationMs: a.duration_ms,
        target: a.target_url,
        responseSnippet: a.response_snippet,
      }));
    },

    /** Endpoints failing or disabled now, failing the longest first, and how many in all (console). */
    async troubledEndpoints(limit: number) {
      const { rows, total } = await repo.troubledEndpoints(db, limit);
      return { items: rows.map(toHealth), total };
    },

    /** POST …/webhookDeliveries/retryFailed: every FAILED delivery of the merchant, again, in order. */
    retryFailed: (merchantId: string) => requeue(merchantId, { failedOnly: true, since: null }),

    /** POST …/webhookDeliveries/recover: everything since `since` again, in order (after an outage of the POS). */
    recoverSince: (merchantId: string, since: Date) => requeue(merchantId, { failedOnly: false, since }),

    /**
     * Worker role: an endpoint failing longer than the configured period is disabled, with that
     * reason, until the merchant registers its URL again (as a 410 does, D11). Returns how many.
     */
    async disableLongFailing(): Promise<number> {
      const hours = deps.disableAfterHours ?? 0;
      if (!hours) return 0;
      const now = clock.now();
      const candidates = await repo.failingSince(db, new Date(now.getTime() - hours * 3_600_000), 100);
      let disabled = 0;
      for (const c of candidates) {
        const reason = `failing for more than ${hours} h`;
        if (await repo.disableWebhookWithReason(db, c.merchant_id, c.url, reason, now)) {
          disabled += 1;
          await deps.notices?.raise([
            {
              at: now,
              kind: 'webhook.disabled',
              merchantId: c.merchant_id,
              message: `Webhook endpoint ${c.url}${ORDER_UPDATE_PATH} disabled: ${reason}; the merchant must register it again`,
              detail: { url: c.url, reason },
            },
          ]);
        }
      }
      return disabled;
    },

    /** Retention (D30): deliveries and attempts of orders whose history is pruned. */
    pruneOrderDeliveries: (orderIds: string[]) => repo.deleteOrderDeliveries(db, orderIds),

    metrics,
    forwarding,
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
