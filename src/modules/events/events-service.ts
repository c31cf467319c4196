import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { newId, uuidV5 } from '../../lib/ids.js';
import type { Principal } from '../auth/token-cache.js';
import {
  type EventListener,
  type EventRecord,
  ORDER_EVENT_TYPES,
  type OrderEventType,
  type RecordedEvent,
} from './event-contract.js';
import * as repo from './events-repository.js';

/** D1: the fixed namespace of eventId = UUIDv5(namespace, eventType). Never change it. */
export const EVENT_ID_NAMESPACE = '7d4f3c2a-91b8-4e6d-a5c0-3b2e1f9d8c74';
export const eventIdOf = (eventType: OrderEventType): string => uuidV5(eventType, EVENT_ID_NAMESPACE);
const EVENT_TYPE_BY_ID = new Map(ORDER_EVENT_TYPES.map((t) => [eventIdOf(t), t] as const));

/** D3: at most this many records per poll. */
export const POLL_LIMIT = 1000;
/** D4: at most this many acknowledgments per request. */
export const ACK_LIMIT = 100;

export const orderNotFound = () => notFound('Order not found');

export interface RecordEventInput {
  merchantId: string;
  orderId: string;
  eventType: OrderEventType;
  metadata?: Record<string, unknown>;
  /** False for the webhook-only CANCELLATION_REQUEST_DENIED of a POS denial (D8). */
  polled?: boolean;
}

export interface AcknowledgmentInput {
  id: string;
  orderId: string;
  eventType: OrderEventType;
}

export function createEventsService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'appId'>;
  /** Fan-out beyond polling (webhooks); called inside the recording transaction. */
  listeners: EventListener[];
}) {
  const { db, clock, config, listeners } = deps;

  function toRecord(e: {
    orderId: string;
    eventType: OrderEventType;
    createdAt: Date;
    metadata?: Record<string, unknown> | null;
  }): EventRecord {
    // D2: exactly these fields; metadata only when the type carries it.
    return {
      eventId: eventIdOf(e.eventType),
      eventType: e.eventType,
      orderId: e.orderId,
      orderURL: `${config.publicUrl}/v1/orders/${e.orderId}`,
      createdAt: e.createdAt.toISOString(),
      sourceAppId: config.appId,
      ...(e.metadata ? { metadata: e.metadata } : {}),
    };
  }

  return {
    eventIdOf,

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
        await repo.fanOutReceipts(tx, { ...input, seq });
      }
      await repo.insertLogEntry(tx, {
        occurrenceId,
        orderId: input.orderId,
        eventType: input.eventType,
        metadata: input.metadata,
        polled,
        at,
      });
      const event: RecordedEvent = {
        occurrenceId,
        merchantId: input.merchantId,
        orderId: input.orderId,
        eventType: input.eventType,
        createdAt: at,
        record: toRecord({ ...input, createdAt: at }),
        polled,
      };
      for (const listener of listeners) await listener(tx, event);
      return event;
    },

    /** GET /v1/events:polling (D3). */
    async poll(
      principal: Principal,
      options: { eventTypes?: OrderEventType[]; pollingMerchants?: string },
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
      const rows = await repo.pendingEventsOfKey(db, principal.keyId, types, POLL_LIMIT);
      return rows.map((r) =>
        toRecord({
          orderId: r.order_id,
          eventType: r.event_type as OrderEventType,
          createdAt: r.created_at,
          metadata: r.metadata,
        }),
      );
    },

    /**
     * POST /v1/events/acknowledgment (spec 4.13, D4): one element after the other, each its own
     * statement, so a failing element leaves the earlier ones acknowledged; repeats are no-ops.
     */
    async acknowledge(principal: Principal, elements: AcknowledgmentInput[]): Promise<void> {
      if (elements.length > ACK_LIMIT) throw badRequest(`body must hold at most ${ACK_LIMIT} acknowledgments`);
      for (const element of elements) {
        const type = EVENT_TYPE_BY_ID.get(element.id.toLowerCase());
        if (!type) throw new AppError(400, 'id');
        const owner = await repo.merchantOfOrder(db, element.orderId);
        if (!owner) throw new AppError(400, 'orderId');
        if (owner !== principal.merchantId) throw orderNotFound();
        // Rule 4: an id that does not match eventType is accepted and acknowledges nothing.
        if (type !== element.eventType) continue;
        await repo.acknowledgeReceipt(db, {
          keyId: principal.keyId,
          orderId: element.orderId,
          eventType: type,
          at: clock.now(),
        });
      }
    },

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
