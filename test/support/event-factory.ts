// Builds RecordedEvents as the events module records them (event-contract.ts), so webhook tests
// can produce events by calling the listener inside a transaction, without orders. The lead can
// replace these with real orders in one end-to-end test.
import { SANDBOX_APP_ID } from '../../src/config.js';
import type { Db } from '../../src/db/db.js';
import { newId, uuidV5 } from '../../src/lib/ids.js';
import type { EventListener, OrderEventType, RecordedEvent } from '../../src/modules/events/event-contract.js';

const EVENT_TYPE_NAMESPACE = '3b0f2f6e-9d8a-4c41-9a57-6f3c8b2d1e07';

export function buildEvent(
  input: { merchantId: string; orderId?: string; eventType?: OrderEventType; polled?: boolean; createdAt?: Date },
  publicUrl = 'http://cleaver.test',
): RecordedEvent {
  const orderId = input.orderId ?? newId();
  const eventType = input.eventType ?? 'CREATED';
  const createdAt = input.createdAt ?? new Date();
  return {
    occurrenceId: newId(),
    merchantId: input.merchantId,
    orderId,
    eventType,
    createdAt,
    polled: input.polled ?? true,
    record: {
      eventId: uuidV5(eventType, EVENT_TYPE_NAMESPACE),
      eventType,
      orderId,
      orderURL: `${publicUrl}/v1/orders/${orderId}`,
      createdAt: createdAt.toISOString(),
      // The platform's app id, as config gives it (a uuid).
      sourceAppId: SANDBOX_APP_ID,
      // Characters outside ASCII: the signature covers the exact UTF-8 bytes.
      ...(eventType.startsWith('CANCEL') ? { metadata: { reason: 'Cliente desistiu — açougue', code: 'X' } } : {}),
    },
  };
}

/** Records events as the events service does: each in its own transaction, listener inside. */
export async function recordEvents(db: Db, listener: EventListener, events: RecordedEvent[]): Promise<void> {
  for (const event of events) await db.transaction((tx) => listener(tx, event));
}
