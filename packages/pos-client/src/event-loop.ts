// The polling loop every POS needs (spec 4.13, 6): poll, hand each event to the handler,
// acknowledge the events whose handler finished (the handler persists before returning), keep
// going across errors, stop cleanly when the signal aborts.
//
// A handler failure is one of two kinds, and one bad event never holds the others back:
// - permanent: the platform refused with a 4xx that will never change (400 `Order has already
//   same event type`, 400 `Order is CANCELLED`, 404, 422…): the event is reported and
//   acknowledged, since handling it again can only fail again;
// - transient (network, 5xx, 409, 429, 401/403 after the token renewal, or any error of the
//   POS's own): the event stays pending and is retried with its own backoff (next poll, then
//   errorDelayMs doubling up to maxErrorDelayMs), while the loop keeps polling every
//   intervalMs and handles everything else.
// `onError` sees every failure and, for handler failures, may decide otherwise.
import type { PosClient } from './client.js';
import type { EventDeduplicator } from './dedupe.js';
import { eventOccurrenceKey } from './dedupe.js';
import { abortableSleep, type SleepFn } from './http.js';
import { type Logger, safeLog } from './logger.js';
import type { EventRecord, OrderEventType } from './types.js';

/**
 * A poll answers at most this many events, the most one acknowledgment takes; a full batch means
 * more may be waiting.
 */
const POLL_BATCH_LIMIT = 100;

/** 4xx answers that may well succeed later (timeout, conflict, too early, rate limit). */
const TRANSIENT_CLIENT_ERRORS = new Set([408, 409, 425, 429]);

/**
 * True for errors that repeating the same request cannot fix: a 4xx answer of the API other than
 * 401/403 (credentials, fixable by an operator) and 408/409/425/429. Errors are recognised by
 * name and status, so that one thrown by another copy of this package (ESM and CommonJS both
 * loaded) counts too.
 */
export function isPermanentFailure(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'CleaverApiError') return false;
  const status = (error as Error & { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 403
    ? !TRANSIENT_CLIENT_ERRORS.has(status)
    : false;
}

/** What happens to an event whose handler failed: acknowledged (given up) or left pending and retried. */
export type FailureDecision = 'acknowledge' | 'retry';

export interface EventLoopErrorContext {
  stage: 'poll' | 'handle' | 'acknowledge';
  /** stage 'handle': the event whose handler failed. */
  event?: EventRecord;
  /** stage 'handle': how many times this occurrence has failed, this time included. */
  attempt?: number;
  /** stage 'handle': what the loop will do unless onError returns otherwise. */
  decision?: FailureDecision;
}

export interface EventLoopOptions {
  signal?: AbortSignal;
  /** Wait between polls (default 5 s). A full batch (100 events) is followed by a poll at once. */
  intervalMs?: number;
  /**
   * Backoff after a failed poll or acknowledgment (the loop waits), and for a transient handler
   * failure (only that event waits: retried at the next poll, then after errorDelayMs, doubling).
   * Default 5 s.
   */
  errorDelayMs?: number;
  /** Ceiling of both backoffs (default 60 s). */
  maxErrorDelayMs?: number;
  eventTypes?: OrderEventType[];
  /**
   * Told about every failure. For a handler failure (`stage: 'handle'`) its return decides:
   * 'acknowledge' gives the event up, 'retry' keeps it pending; any other value (or none) keeps
   * `context.decision` (permanent → acknowledge, otherwise retry). May be async.
   */
  onError?: (error: unknown, context: EventLoopErrorContext) => FailureDecision | Promise<FailureDecision> | unknown;
  /** Told after every acknowledged batch. */
  onAcknowledged?: (events: EventRecord[]) => void;
  /** Where failures are reported (warn/error) and progress (debug); pino-like. Silent by default. */
  logger?: Logger;
  /**
   * Skips (and acknowledges) occurrences already handled, e.g. by your webhook receiver, and
   * marks what this loop handled. See createEventDeduplicator.
   */
  deduplicator?: EventDeduplicator;
  sleep?: SleepFn;
  /** Clock for the per-event backoff (tests). */
  now?: () => number;
}

export interface EventLoopSummary {
  polls: number;
  /** Handler calls that finished. */
  handled: number;
  acknowledged: number;
  /** Handler calls that threw. */
  failed: number;
  /** Events acknowledged after their handler failed (permanent failures, or onError's choice). */
  givenUp: number;
  /** Occurrences the deduplicator had seen: acknowledged without calling the handler. */
  duplicates: number;
}

export type EventHandler = (event: EventRecord, context: { signal: AbortSignal }) => Promise<void>;

interface PendingFailure {
  attempts: number;
  retryAt: number;
}

const eventFields = (event: EventRecord) => ({
  orderId: event.orderId,
  eventType: event.eventType,
  eventId: event.eventId,
  createdAt: event.createdAt,
});

/**
 * Runs until `signal` aborts; resolves with what it did. Events of one order are handled in the
 * order polled: while an event of an order waits for a retry, later events of that order wait
 * too, so a POS never sees CANCELLED before the CREATED it could not save. Handlers must be
 * idempotent (spec 6): a retried event, or one whose acknowledgment was lost, comes again.
 */
export async function runEventLoop(
  client: Pick<PosClient, 'pollEvents' | 'acknowledgeEvents'>,
  handler: EventHandler,
  options: EventLoopOptions = {},
): Promise<EventLoopSummary> {
  const signal = options.signal ?? new AbortController().signal;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const logger = options.logger;
  const intervalMs = options.intervalMs ?? 5_000;
  const baseErrorDelay = options.errorDelayMs ?? 5_000;
  const maxErrorDelay = options.maxErrorDelayMs ?? 60_000;
  const summary: EventLoopSummary = { polls: 0, handled: 0, acknowledged: 0, failed: 0, givenUp: 0, duplicates: 0 };
  /** Occurrences whose handler failed transiently, by occurrence key. */
  const failures = new Map<string, PendingFailure>();
  let errorStreak = 0;

  const pause = async (ms: number) => {
    try {
      await sleep(ms, signal);
    } catch {
      // aborted: the while condition ends the loop
    }
  };
  const loopDelay = () => Math.min(maxErrorDelay, baseErrorDelay * 2 ** Math.max(0, errorStreak - 1));
  // The first retry of an event is at the next poll; later ones back off.
  const eventDelay = (attempts: number) =>
    attempts <= 1 ? 0 : Math.min(maxErrorDelay, baseErrorDelay * 2 ** (attempts - 2));

  async function askOnError(error: unknown, context: EventLoopErrorContext): Promise<FailureDecision | undefined> {
    if (!options.onError) return undefined;
    try {
      const answer = await options.onError(error, context);
      return answer === 'acknowledge' || answer === 'retry' ? answer : undefined;
    } catch (failure) {
      safeLog(logger, 'error', { err: failure, stage: context.stage }, 'onError threw; ignoring it');
      return undefined;
    }
  }

  /** A handler failure: reports it and says whether to acknowledge the event. */
  async function handlerFailed(event: EventRecord, key: string, error: unknown): Promise<boolean> {
    summary.failed++;
    const attempt = (failures.get(key)?.attempts ?? 0) + 1;
    const permanent = isPermanentFailure(error);
    const suggested: FailureDecision = permanent ? 'acknowledge' : 'retry';
    const decision = (await askOnError(error, { stage: 'handle', event, attempt, decision: suggested })) ?? suggested;
    const fields = { err: error, event: eventFields(event), attempt, permanent, decision };
    if (decision === 'acknowledge') {
      failures.delete(key);
      summary.givenUp++;
      safeLog(logger, 'warn', fields, 'event handler failed; acknowledging the event, it will not come back');
      return true;
    }
    const retryInMs = eventDelay(attempt);
    failures.set(key, { attempts: attempt, retryAt: now() + retryInMs });
    safeLog(
      logger,
      attempt >= 5 ? 'error' : 'warn',
      { ...fields, retryInMs },
      retryInMs === 0
        ? 'event handler failed; the event stays pending and is retried at the next poll'
        : `event handler failed; the event stays pending and is retried in ${retryInMs} ms or later`,
    );
    return false;
  }

  while (!signal.aborted) {
    let events: EventRecord[];
    try {
      summary.polls++;
      events = await client.pollEvents({ eventTypes: options.eventTypes, signal });
    } catch (error) {
      if (signal.aborted) break;
      errorStreak++;
      const delayMs = loopDelay();
      safeLog(logger, 'warn', { err: error, stage: 'poll', retryInMs: delayMs }, 'polling failed');
      await askOnError(error, { stage: 'poll' });
      await pause(delayMs);
      continue;
    }
    errorStreak = 0;
    if (events.length < POLL_BATCH_LIMIT) {
      // The whole backlog is in view: failures of events no longer pending are forgotten.
      const pending = new Set(events.map(eventOccurrenceKey));
      for (const key of failures.keys()) if (!pending.has(key)) failures.delete(key);
    }
    if (events.length > 0) safeLog(logger, 'debug', { count: events.length }, 'polled events');

    const done: EventRecord[] = [];
    const waitingOrders = new Set<string>();
    for (const event of events) {
      if (signal.aborted) break;
      if (waitingOrders.has(event.orderId)) continue;
      const key = eventOccurrenceKey(event);
      const failure = failures.get(key);
      if (failure && failure.retryAt > now()) {
        waitingOrders.add(event.orderId);
        continue;
      }
      try {
        if (options.deduplicator) {
          const ran = await options.deduplicator.handleOnce(event, () => handler(event, { signal }));
          if (ran) summary.handled++;
          else {
            summary.duplicates++;
            safeLog(
              logger,
              'debug',
              { event: eventFields(event) },
              'event already handled (deduplicator); acknowledging',
            );
          }
        } else {
          await handler(event, { signal });
          summary.handled++;
        }
        failures.delete(key);
        done.push(event);
      } catch (error) {
        // Stopping: an interrupted handler did not finish; its event stays pending, unreported.
        if (signal.aborted) break;
        if (await handlerFailed(event, key, error)) done.push(event);
        else waitingOrders.add(event.orderId);
      }
    }

    // Acknowledge what finished even when stopping: the handler has persisted it (4.13 rule 1).
    if (done.length > 0) {
      try {
        await client.acknowledgeEvents(done);
        summary.acknowledged += done.length;
        safeLog(logger, 'debug', { count: done.length }, 'acknowledged events');
        options.onAcknowledged?.(done);
      } catch (error) {
        // They come back in the next poll: handlers are idempotent, or the deduplicator skips them.
        errorStreak++;
        const delayMs = loopDelay();
        safeLog(
          logger,
          'warn',
          { err: error, stage: 'acknowledge', count: done.length, retryInMs: delayMs },
          'acknowledgment failed; the events come back in the next poll',
        );
        await askOnError(error, { stage: 'acknowledge' });
        await pause(delayMs);
        continue;
      }
    }
    if (events.length >= POLL_BATCH_LIMIT && done.length > 0) continue;
    await pause(intervalMs);
  }
  return summary;
}
