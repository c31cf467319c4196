import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { linkActiveSpan } from '../../lib/tracing.js';
import type { Principal } from '../auth/index.js';
import type { NoticeInput } from '../notices/index.js';
import {
  type AcknowledgmentInput,
  type AcknowledgmentResult,
  acknowledgeElements,
  mismatchWarning,
  type TypeMismatch,
} from './acknowledgment.js';
import {
  type EventListener,
  type EventRecord,
  isOptInEventType,
  type OrderEventType,
  type RecordedEvent,
} from './event-contract.js';
import { eventIdOf, eventRecordFor } from './event-dialects.js';
import * as repo from './events-repository.js';
import { createPendingKeys } from './pending-keys.js';

export { EVENT_ID_NAMESPACE, eventIdOf } from './event-dialects.js';

/** D39: at most this many records per poll, the most one acknowledgment takes (amends D3's 1000). */
export const POLL_LIMIT = 100;
/** D4: at most this many acknowledgments per request. */
export const ACK_LIMIT = 100;

export const orderNotFound = () => notFound('Order not found');

/** D39: the integration notice of a key whose acknowledgments name other types than polled. */
export const TYPE_MISMATCH_NOTICE = 'acknowledgment.type-mismatch';
/** D39: at most one such notice per key in this long. */
const TYPE_MISMATCH_NOTICE_EVERY_MS = 24 * 3_600_000;

export interface RecordEventInput {
  merchantId: string;
  orderId: string;
  eventType: OrderEventType;
  metadata?: Record<string, unknown>;
  /** False for the webhook-only CANCELLATION_REQUEST_DENIED of a POS denial (D8). */
  polled?: boolean;
  /** For the platform feed only (D36): never stored with the event nor shown to a POS. */
  detail?: Record<string, unknown>;
  /** D42: an opt-in type, fanned out only to the keys whose `extraEventTypes` name it. */
  optIn?: boolean;
}

export type { AcknowledgmentInput } from './acknowledgment.js';

/** Filter values a key may send to polling that no event of the platform ever has (D28). */
export type PollableEventType = OrderEventType | 'PREPARATION_REQUESTED';

export function createEventsService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'appId'>;
  /** Fan-out beyond polling (webhooks); called inside the recording transaction. */
  listeners: EventListener[];
  /** D39: where a key's type mismatches are raised, once a day per key. */
  notices?: { raiseUnlessRaisedSince(notice: NoticeInput, keyId: string, since: Date): Promise<void> };
}) {
  const { db, clock, config, listeners } = deps;

  /** D39: one integration notice per key and day, naming both types of the first mismatch. */
  async function raiseMismatchNotice(principal: Principal, mismatch: TypeMismatch): Promise<void> {
    if (!deps.notices) return;
    const at = clock.now();
    const { eventType, acknowledgedAs } = mismatch;
    await deps.notices.raiseUnlessRaisedSince(
      {
        at,
        kind: TYPE_MISMATCH_NOTICE,
        merchantId: principal.merchantId,
        message:
          `${eventType} acknowledged as ${acknowledgedAs}: the client maps unknown event types to ${acknowledgedAs} ` +
          `(integration key ${principal.keyId}; acknowledged by its eventId)`,
        detail: { keyId: principal.keyId, eventType, acknowledgedAs, orderId: mismatch.orderId },
      },
      principal.keyId,
      new Date(at.getTime() - TYPE_MISMATCH_NOTICE_EVERY_MS),
    );
  }

  /**
   * D42: a key that opted out after an opt-in event was fanned out to it is not shown it; its
   * receipts of the types it no longer asks for are dropped, so they do not wait at the head of
   * its queue. Costs a read only when an opt-in type is among the rows.
   */
  async function withoutUnaskedOptIns(keyId: string, rows: repo.OrderEventRow[]): Promise<repo.OrderEventRow[]> {
    if (!rows.some((r) => isOptInEventType(r.event_type))) return rows;
    const extra = new Set(await repo.extraEventTypesOfKey(db, keyId));
    const unasked = [...new Set(rows.map((r) => r.event_type).filter((t) => isOptInEventType(t) && !extra.has(t)))];
    if (unasked.length === 0) return rows;
    await repo.dropPendingReceiptsOfTypes(db, keyId, unasked);
    return rows.filter((r) => !unasked.includes(r.event_type));
  }

  const context = { publicUrl: config.publicUrl, appId: config.appId };
  // Keys known to have nothing pending: most polls answer 204 without the database (ADR 12).
  const pendingKeys = createPendingKeys({ db });

  return {
    eventIdOf,
    /** Starts learning which keys have nothing pending (an API process); until then every poll reads. */
    start: () => pendingKeys.start(),
    stop: () => pendingKeys.stop(),

    /**
     * Records one event inside the caller's transaction (the state change and its event commit
     * together): the (order, type) row (re-opened on repeat, D1), a pending receipt for every
     * live integration key, a timeline entry, then every listener with the same tx.
     */
    async recordEvent(tx: Queryable, input: RecordEventInput): Promise<RecordedEvent> {
      const at = clock.now();
      const occurrenceId = newId();
      const polled = input.polled ?? true;
      if (polled) {
        const seq = await repo.upsertEvent(tx, {
          orderId: input.orderId,
          eventType: input.eventType,
          merchantId: input.merchantId,
          occurrenceId,
          metadata: input.metadata,
          at,
        });
        await repo.fanOutReceipts(tx, { ...input, seq, occurrenceId, optIn: input.optIn === true });
      }
      await repo.insertLogEntry(tx, {
        occurrenceId,
        orderId: input.orderId,
        eventType: input.eventType,
        metadata: input.metadata,
        polled,
        at,
      });
      const occurrence = { ...input, occurrenceId, createdAt: at };
      const event: RecordedEvent = {
        occurrenceId,
        merchantId: input.merchantId,
        orderId: input.orderId,
        eventType: input.eventType,
        createdAt: at,
        // Both dialects: the webhook outbox stores the one its URL's key speaks (D28).
        record: eventRecordFor('cleaver', occurrence, context),
        openDeliveryRecord: eventRecordFor('opendelivery', occurrence, context),
        polled,
        ...(input.metadata ? { metadata: input.metadata } : {}),
        ...(input.detail ? { detail: input.detail } : {}),
        ...(input.optIn ? { optIn: true } : {}),
      };
      for (const listener of listeners) await listener(tx, event);
      return event;
    },

    /** GET /v1/events:polling (D3), in the calling key's dialect (D27). */
    async poll(
      principal: Principal,
      options: { eventTypes?: PollableEventType[]; pollingMerchants?: string },
    ): Promise<EventRecord[]> {
      if (options.pollingMerchants !== undefined) {
        const named = options.pollingMerchants
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean);
        if (named.some((id) => id !== principal.merchantId.toLowerCase())) {
          throw forbidden('x-polling-merchants may name only the merchant of the access token');
        }
      }
      const types = options.eventTypes?.length ? [...new Set(options.eventTypes)] : undefined;
      // D42: asking for an opt-in type the key did not opt in to is a mistake worth naming.
      const optInAsked = types?.filter(isOptInEventType) ?? [];
      if (optInAsked.length > 0) {
        const extra = new Set(await repo.extraEventTypesOfKey(db, principal.keyId));
        const missing = optInAsked.find((t) => !extra.has(t));
        if (missing) {
          throw badRequest(
            `eventType ${missing} is sent only to keys that opted in (integration setting extraEventTypes)`,
          );
        }
      }
      // Nothing pending at all, so nothing of these types either (docs/adr/0012-pending-keys-cache.md).
      if (await pendingKeys.knownEmpty(principal.keyId)) return [];
      // Only a read of every type that finds nothing says the key has nothing pending.
      const read = types ? undefined : pendingKeys.beginRead(principal.keyId);
      let rows: repo.OrderEventRow[];
      try {
        rows = await repo.pendingEventsOfKey(db, principal.keyId, types, POLL_LIMIT);
      } catch (error) {
        if (read) pendingKeys.endRead(read, false);
        throw error;
      }
      if (read) pendingKeys.endRead(read, rows.length === 0);
      rows = await withoutUnaskedOptIns(principal.keyId, rows);
      // The poll's span links to the traces that recorded the events it hands over (tracing on).
      linkActiveSpan(rows, (row) => row.traceparent);
      return rows.map((r) =>
        eventRecordFor(
          principal.profile,
          {
            occurrenceId: r.occurrence_id,
            orderId: r.order_id,
            eventType: r.event_type as OrderEventType,
            createdAt: r.created_at,
            metadata: r.metadata,
          },
          context,
        ),
      );
    },

    /**
     * POST /v1/events/acknowledgment (spec 4.13, D4, D39): every element processed in order, each
     * its own statement; the first refusal is the answer (acknowledgment.ts). A type mismatch an
     * opendelivery key was forgiven comes back as the request log's warning and is raised as a
     * notice.
     */
    async acknowledge(
      principal: Principal,
      elements: AcknowledgmentInput[],
    ): Promise<AcknowledgmentResult & { warning?: string }> {
      if (elements.length > ACK_LIMIT) throw badRequest(`body must hold at most ${ACK_LIMIT} acknowledgments`);
      const result = await acknowledgeElements(db, clock, principal, elements);
      const [first] = result.mismatches;
      if (first) await raiseMismatchNotice(principal, first);
      const warning = mismatchWarning(result.mismatches);
      return warning ? { ...result, warning } : result;
    },

    // ---- retention (D30) ----
    pruneAcknowledgedReceipts: (before: Date, limit: number) => repo.deleteAcknowledgedReceipts(db, before, limit),
    expirePendingReceipts: (before: Date, limit: number) => repo.expirePendingReceipts(db, before, limit),
    pruneOrderHistory: (orderIds: string[]) => repo.deleteOrderHistory(db, orderIds),

    /** The operator's timeline: every occurrence, with each key's acknowledgment of the current one. */
    async timeline(orderId: string) {
      const [entries, receipts] = await Promise.all([
        repo.orderTimeline(db, orderId),
        repo.receiptsOfOrder(db, orderId),
      ]);
      return entries.map((e) => ({
        occurrenceId: e.occurrence_id,
        eventId: eventIdOf(e.event_type as OrderEventType),
        eventType: e.event_type,
        createdAt: e.created_at.toISOString(),
        ...(e.metadata ? { metadata: e.metadata } : {}),
        polled: e.polled,
        current: e.current,
        // The console links the occurrence to its trace (tracing on when it was recorded).
        ...(e.traceparent ? { traceparent: e.traceparent } : {}),
        acknowledgments: e.current
          ? receipts
              .filter((r) => r.event_type === e.event_type)
              .map((r) => ({
                keyId: r.key_id,
                acknowledged: r.acknowledged_at !== null,
                acknowledgedAt: r.acknowledged_at ? r.acknowledged_at.toISOString() : null,
              }))
          : [],
      }));
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
