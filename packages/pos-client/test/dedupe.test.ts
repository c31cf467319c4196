import { describe, expect, it } from 'vitest';
import {
  createEventDeduplicator,
  createMemoryDeduplicationStore,
  type DeduplicationStore,
  type EventRecord,
  eventOccurrenceKey,
} from '../src/index.js';

const ORDER = '6f1c2a4e-0b7d-4c55-9d1e-2a3b4c5d6e7f';
const event = (eventType: EventRecord['eventType'], createdAt: string, eventId = 'type-id'): EventRecord => ({
  eventId,
  eventType,
  orderId: ORDER,
  orderURL: `http://x/v1/orders/${ORDER}`,
  createdAt,
  sourceAppId: 'app',
});

describe('event de-duplication', () => {
  it('keys an occurrence by order, type and when it happened, whatever the eventId', () => {
    const created = event('CREATED', '2026-11-22T03:00:00.000Z');
    expect(eventOccurrenceKey(created)).toBe(`${ORDER}:CREATED:2026-11-22T03:00:00.000Z`);
    // cleaver profile: every CREATED of every order has the same eventId (D1); opendelivery: one per occurrence.
    const sameOccurrence: EventRecord = { ...created, eventId: 'another' };
    expect(eventOccurrenceKey(sameOccurrence)).toBe(eventOccurrenceKey(created));
    // The same instant written another way is the same occurrence.
    expect(eventOccurrenceKey(event('CREATED', '2026-11-22T00:00:00-03:00'))).toBe(eventOccurrenceKey(created));
    // A re-opened event (D1) happened again: a new occurrence.
    expect(eventOccurrenceKey(event('CREATED', '2026-11-22T03:05:00.000Z'))).not.toBe(eventOccurrenceKey(created));
  });

  it('handleOnce runs the handler once per occurrence, even for two deliveries arriving together', async () => {
    const dedupe = createEventDeduplicator();
    const created = event('CREATED', '2026-11-22T03:00:00.000Z');
    let runs = 0;
    const handler = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const [webhook, poll] = await Promise.all([
      dedupe.handleOnce(created, handler),
      dedupe.handleOnce(created, handler),
    ]);
    expect([webhook, poll]).toEqual([true, false]);
    expect(runs).toBe(1);
    const odCopy: EventRecord = { ...created, eventId: 'od-occurrence-id' };
    expect(await dedupe.handleOnce(odCopy, handler)).toBe(false);
    expect(await dedupe.seen(event('CANCELLED', '2026-11-22T03:01:00.000Z'))).toBe(false);
  });

  it('a handler that throws leaves the occurrence unmarked: the next delivery runs it', async () => {
    const dedupe = createEventDeduplicator();
    const created = event('CREATED', '2026-11-22T03:00:00.000Z');
    const first = dedupe.handleOnce(created, async () => {
      throw new Error('disk full');
    });
    const second = dedupe.handleOnce(created, async () => {});
    await expect(first).rejects.toThrow('disk full');
    expect(await second).toBe(true);
    expect(await dedupe.seen(created)).toBe(true);
  });

  it('forgets after ttlMs; the memory store keeps at most maxEntries, dropping the oldest', async () => {
    let now = 1_000_000;
    const store = createMemoryDeduplicationStore({ maxEntries: 2, now: () => now });
    const dedupe = createEventDeduplicator({ store, ttlMs: 60_000, now: () => now });
    const a = event('CREATED', '2026-11-22T03:00:00.000Z');
    const b = event('CONFIRMED', '2026-11-22T03:00:01.000Z');
    const c = event('DISPATCHED', '2026-11-22T03:00:02.000Z');
    await dedupe.markHandled(a);
    now += 59_999;
    expect(await dedupe.seen(a)).toBe(true);
    now += 1;
    expect(await dedupe.seen(a)).toBe(false);
    for (const e of [a, b, c]) await dedupe.markHandled(e);
    expect(store.size).toBe(2);
    expect([await dedupe.seen(a), await dedupe.seen(b), await dedupe.seen(c)]).toEqual([false, true, true]);
  });

  it('takes an async store of the POS (e.g. its database) through the same two calls', async () => {
    const rows = new Map<string, number>();
    const calls: string[] = [];
    const store: DeduplicationStore = {
      async has(key) {
        calls.push(`has ${key}`);
        return (rows.get(key) ?? 0) > Date.now();
      },
      async add(key, expiresAt) {
        calls.push(`add ${key}`);
        rows.set(key, expiresAt);
      },
    };
    const dedupe = createEventDeduplicator({ store });
    const created = event('CREATED', '2026-11-22T03:00:00.000Z');
    expect(await dedupe.handleOnce(created, async () => {})).toBe(true);
    expect(await dedupe.handleOnce(created, async () => {})).toBe(false);
    const key = eventOccurrenceKey(created);
    expect(calls).toEqual([`has ${key}`, `add ${key}`, `has ${key}`]);
  });
});
