import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { linkActiveSpan } from '../../lib/tracing.js';
import type { Principal } from '../auth/index.js';
import type { EventListener, EventRecord, OrderEventType, RecordedEvent } from './event-contract.js';
import { EVENT_TYPE_BY_ID, eventIdOf, eventRecordFor } from './event-dialects.js';
import * as repo from './events-repository.js';
import { createPendingKeys } from './pending-keys.js';

export { EVENT_ID_NAMESPACE, eventIdOf } from './event-dialects.js';

/** D3: at most this many records per poll. */
export const POLL_LIMIT = 1000;
/** D4: at most this many acknowledgments per request. */
export const ACK_LIMIT = 100;

export const orderNotFound = () => notFound('Order not found');
/** D32: an acknowledgment element whose eventType is not the type its id names (spec 4.13's `{title: <field>}`). */
const wrongEventType = () => new AppError(400, 'eventType');

export interface RecordEventInput {
  merchantId: string;
  orderId: string;
  eventType: OrderEventType;
  metadata?: Record<string, unknown>;
  /** False for the webhook-only CANCELLATION_REQUEST_DENIED of a POS denial (D8). */
  polled?: boolean;
  /** For the platform feed only (D36): never stored with the event nor shown to a POS. */
  detail?: Record<string, unknown>;
}

export interface AcknowledgmentInput {
  id: string;
  orderId: string;
  eventType: OrderEventType;
}

/** Filter values a key may send to polling that no event of the platform ever has (D28). */
export type PollableEventType = OrderEventType | 'PREPARATION_REQUESTED';

export function createEventsService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'appId'>;
  /** Fan-out beyond polling (webhooks); called inside the recording transaction. */
  listeners: EventListener[];
}) {
  const { db, clock, config, listeners } = deps;
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
        await repo.fanOutReceipts(tx, { ...input, seq, occurrenceId });
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
      // The poll's span links to the traces that recorded the events it hands over (tracing on).
      linkActiveSpan(rows.map((r) => r.traceparent));
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
     * POST /v1/events/acknowledgment (spec 4.13, D4): one element after the other, each its own
     * statement, so a failing element leaves the earlier ones acknowledged; repeats are no-ops.
     *
     * `id` may be either form of eventId, whatever the key's profile (D28): the type's id (D1),
     * which acknowledges the event's current occurrence, or an occurrence id, which acknowledges
     * that occurrence only. The two never collide (a type id is a version 5 uuid, an occurrence
     * id a random version 4 one), so events polled before a profile change keep their identity.
     */
    async acknowledge(principal: Principal, elements: AcknowledgmentInput[]): Promise<void> {
      if (elements.length > ACK_LIMIT) throw badRequest(`body must hold at most ${ACK_LIMIT} acknowledgments`);
      for (const element of elements) {
        const type = EVENT_TYPE_BY_ID.get(element.id.toLowerCase());
        if (type) {
          const owner = await repo.merchantOfOrder(db, element.orderId);
          if (!owner) throw new AppError(400, 'orderId');
          if (owner !== principal.merchantId) throw orderNotFound();
          // D32: the id names another type than the one sent. Accepting it acknowledged nothing,
          // so the event came back on every poll (a POS that maps unknown types to CREATED
          // looped on it forever); the earlier elements stay acknowledged (rule 2).
          if (type !== element.eventType) throw wrongEventType();
          await repo.acknowledgeReceipt(db, {
            keyId: principal.keyId,
            orderId: element.orderId,
            eventType: type,
            at: clock.now(),
          });
          continue;
        }
        const occurrenceId = element.id.toLowerCase();
        const { owner, occurrence } = await repo.lookupOccurrence(db, occurrenceId, element.orderId);
        // D21: another merchant's occurrence is as unknown as one that never was.
        if (!occurrence || occurrence.merchant_id !== principal.merchantId) throw new AppError(400, 'id');
        if (!owner) throw new AppError(400, 'orderId');
        if (owner !== principal.merchantId) throw orderNotFound();
        // Rule 4: an occurrence of another order acknowledges nothing; an earlier occurrence of a
        // re-opened event neither (its newer occurrence is still unseen).
        if (occurrence.order_id !== element.orderId) continue;
        // D32: an occurrence of this order whose type is not the one sent.
        if (occurrence.event_type !== element.eventType) throw wrongEventType();
        await repo.acknowledgeOccurrence(db, {
          keyId: principal.keyId,
          orderId: element.orderId,
          eventType: element.eventType,
          occurrenceId,
          at: clock.now(),
        });
      }
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
