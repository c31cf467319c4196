// The polling loop every POS needs (spec 4.13, 6): poll, hand each event to the handler,
// acknowledge only the events whose handler finished (the handler persists before returning),
// keep going across errors, stop cleanly when the signal aborts.
import type { PosClient } from './client.js';
import { abortableSleep, type SleepFn } from './http.js';
import type { EventRecord, OrderEventType } from './types.js';

export interface EventLoopOptions {
  signal?: AbortSignal;
  /** Wait between polls when nothing is pending (default 5 s). */
  intervalMs?: number;
  /** Wait after a failed poll/ack or a handler error before polling again (default 5 s, doubling up to 60 s). */
  errorDelayMs?: number;
  maxErrorDelayMs?: number;
  eventTypes?: OrderEventType[];
  /** Told about every failure; the loop itself carries on. */
  onError?: (error: unknown, context: { stage: 'poll' | 'handle' | 'acknowledge'; event?: EventRecord }) => void;
  /** Told after every acknowledged batch. */
  onAcknowledged?: (events: EventRecord[]) => void;
  sleep?: SleepFn;
}

export interface EventLoopSummary {
  polls: number;
  handled: number;
  acknowledged: number;
  failed: number;
}

export type EventHandler = (event: EventRecord, context: { signal: AbortSignal }) => Promise<void>;

/**
 * Runs until `signal` aborts; resolves with what it did. Events of one order are handled in the
 * order polled: once an event of an order fails, later events of that order in the same batch
 * wait for the next poll, so a POS never sees CANCELLED before the CREATED it could not save.
 * An event whose handler threw is not acknowledged and comes back in a later poll, so handlers
 * must be idempotent (spec 6) — as they must be anyway, since an acknowledgment can be lost.
 */
export async function runEventLoop(
  client: Pick<PosClient, 'pollEvents' | 'acknowledgeEvents'>,
  handler: EventHandler,
  options: EventLoopOptions = {},
): Promise<EventLoopSummary> {
  const signal = options.signal ?? new AbortController().signal;
  const sleep = options.sleep ?? abortableSleep;
  const intervalMs = options.intervalMs ?? 5_000;
  const baseErrorDelay = options.errorDelayMs ?? 5_000;
  const maxErrorDelay = options.maxErrorDelayMs ?? 60_000;
  const summary: EventLoopSummary = { polls: 0, handled: 0, acknowledged: 0, failed: 0 };
  let errorStreak = 0;

  const pause = async (ms: number) => {
    try {
      await sleep(ms, signal);
    } catch {
      // aborted: the while condition ends the loop
    }
  };
  const report = (error: unknown, stage: 'poll' | 'handle' | 'acknowledge', event?: EventRecord) => {
    try {
      options.onError?.(error, { stage, event });
    } catch {
      // a failing reporter must not stop the loop
    }
  };
  const errorDelay = () => Math.min(maxErrorDelay, baseErrorDelay * 2 ** Math.max(0, errorStreak - 1));

  while (!signal.aborted) {
    let events: EventRecord[];
    try {
      summary.polls++;
      events = await client.pollEvents({ eventTypes: options.eventTypes, signal });
    } catch (error) {
      if (signal.aborted) break;
      errorStreak++;
      report(error, 'poll');
      await pause(errorDelay());
      continue;
    }
    if (events.length === 0) {
      errorStreak = 0;
      await pause(intervalMs);
      continue;
    }

    const done: EventRecord[] = [];
    const blockedOrders = new Set<string>();
    for (const event of events) {
      if (signal.aborted) break;
      if (blockedOrders.has(event.orderId)) continue;
      try {
        await handler(event, { signal });
        done.push(event);
        summary.handled++;
      } catch (error) {
        summary.failed++;
        blockedOrders.add(event.orderId);
        report(error, 'handle', event);
      }
    }

    // Acknowledge what finished even when stopping: the handler has persisted it (4.13 rule 1).
    let ackFailed = false;
    if (done.length > 0) {
      try {
        await client.acknowledgeEvents(done);
        summary.acknowledged += done.length;
        options.onAcknowledged?.(done);
      } catch (error) {
        ackFailed = true;
        report(error, 'acknowledge');
      }
    }
    if (blockedOrders.size > 0 || ackFailed) {
      errorStreak++;
      await pause(errorDelay());
    } else {
      errorStreak = 0;
      // A full batch means more may be waiting: poll again at once.
    }
  }
  return summary;
}
