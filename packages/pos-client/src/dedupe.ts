// One event occurrence can reach a POS more than once: by webhook and by polling (the platform
// sends both, D11), by a webhook retry, or by polling again after an acknowledgment was lost.
// The deduplicator remembers which occurrences were handled, under a key that means the same
// thing whichever way the event came and whichever integration profile the key has:
//
//   `${orderId}:${eventType}:${createdAt}`
//
// - With the `cleaver` profile, `eventId` names the event TYPE (the same for every order, D1):
//   an occurrence is the order, the type and when it happened (a re-opened event has a new
//   createdAt, so it is handled again, as it should be).
// - With the `opendelivery` profile `eventId` is unique per occurrence (D28), so `eventId` alone
//   would do there, but the key above works for it as well.
// A webhook body is the polled record (D10), so both routes give the same key; the webhook-id
// header is per occurrence too, but polling does not carry it.
import type { EventRecord } from './types.js';

export type OccurrenceFields = Pick<EventRecord, 'orderId' | 'eventType' | 'createdAt'>;

/** The stable key of one occurrence (see the top of this file). createdAt is normalised to ISO. */
export function eventOccurrenceKey(event: OccurrenceFields): string {
  const at = Date.parse(event.createdAt);
  const createdAt = Number.isNaN(at) ? event.createdAt : new Date(at).toISOString();
  return `${event.orderId}:${event.eventType}:${createdAt}`;
}

/** Where handled keys are kept. Implement it over your own database to survive restarts. */
export interface DeduplicationStore {
  /** True when `key` was added and has not expired. */
  has(key: string): boolean | Promise<boolean>;
  /** Remember `key` until `expiresAt` (epoch milliseconds). */
  add(key: string, expiresAt: number): void | Promise<void>;
}

export interface MemoryStoreOptions {
  /** Most keys kept; the oldest go first beyond it (default 10 000). */
  maxEntries?: number;
  now?: () => number;
}

export interface MemoryDeduplicationStore extends DeduplicationStore {
  readonly size: number;
}

/** The default store: in memory, bounded, forgotten on restart. */
export function createMemoryDeduplicationStore(options: MemoryStoreOptions = {}): MemoryDeduplicationStore {
  const maxEntries = Math.max(1, options.maxEntries ?? 10_000);
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-adding a key moves it to the end, so the first key
  // is always the one added longest ago.
  const keys = new Map<string, number>();
  return {
    get size() {
      return keys.size;
    },
    has(key) {
      const expiresAt = keys.get(key);
      if (expiresAt === undefined) return false;
      if (expiresAt <= now()) {
        keys.delete(key);
        return false;
      }
      return true;
    },
    add(key, expiresAt) {
      keys.delete(key);
      keys.set(key, expiresAt);
      for (const oldest of keys.keys()) {
        if (keys.size <= maxEntries) break;
        keys.delete(oldest);
      }
    },
  };
}

export interface EventDeduplicatorOptions {
  /** Default: createMemoryDeduplicationStore(). */
  store?: DeduplicationStore;
  /**
   * How long a handled occurrence is remembered (default 7 days). Make it longer than an event
   * can stay pending: an unacknowledged event keeps coming back in polling.
   */
  ttlMs?: number;
  now?: () => number;
}

export interface EventDeduplicator {
  /** The occurrence key (eventOccurrenceKey). */
  key(event: OccurrenceFields): string;
  /** Was this occurrence handled already? */
  seen(event: OccurrenceFields): Promise<boolean>;
  /** Record the occurrence as handled; call it once your handling is persisted. */
  markHandled(event: OccurrenceFields): Promise<void>;
  /**
   * Runs `handler` unless the occurrence was handled, then marks it. Within this process a
   * second call for an occurrence still being handled waits for the first and then does not
   * run (a webhook and a poll arriving together). Resolves true when `handler` ran. A handler
   * that throws leaves the occurrence unmarked, so it is tried again next time.
   */
  handleOnce(event: OccurrenceFields, handler: () => Promise<void>): Promise<boolean>;
}

export function createEventDeduplicator(options: EventDeduplicatorOptions = {}): EventDeduplicator {
  const now = options.now ?? Date.now;
  const store = options.store ?? createMemoryDeduplicationStore({ now });
  const ttlMs = options.ttlMs ?? 7 * 24 * 3_600_000;
  const inFlight = new Map<string, Promise<boolean>>();

  return {
    key: eventOccurrenceKey,
    async seen(event) {
      return store.has(eventOccurrenceKey(event));
    },
    async markHandled(event) {
      await store.add(eventOccurrenceKey(event), now() + ttlMs);
    },
    async handleOnce(event, handler) {
      const key = eventOccurrenceKey(event);
      // Calls for one key queue behind each other, registered before any await, so two callers
      // cannot both find the key free: the second sees the first one's mark and does not run.
      const previous = inFlight.get(key);
      const work = (async () => {
        if (previous) await previous.catch(() => false);
        if (await store.has(key)) return false;
        await handler();
        await store.add(key, now() + ttlMs);
        return true;
      })();
      inFlight.set(key, work);
      try {
        return await work;
      } finally {
        if (inFlight.get(key) === work) inFlight.delete(key);
      }
    },
  };
}
