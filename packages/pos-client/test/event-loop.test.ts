import { describe, expect, it } from 'vitest';
import {
  CleaverApiError,
  CleaverAuthError,
  CleaverNetworkError,
  createEventDeduplicator,
  type EventRecord,
  isPermanentFailure,
  runEventLoop,
} from '../src/index.js';
import { recordingSleep } from './support.js';

// A scripted stand-in for the two client calls the loop uses. The loop against the real
// server is in client-orders.test.ts; this one pins down the error paths precisely.
function scripted(batches: Array<EventRecord[] | Error>) {
  const acked: EventRecord[][] = [];
  const ackFailures: Error[] = [];
  return {
    acked,
    ackFailures,
    client: {
      async pollEvents() {
        const next = batches.shift();
        if (next instanceof Error) throw next;
        return next ?? [];
      },
      async acknowledgeEvents(events: EventRecord[]) {
        const failure = ackFailures.shift();
        if (failure) throw failure;
        acked.push(events as EventRecord[]);
      },
    },
  };
}

const ev = (orderId: string, eventType: EventRecord['eventType']): EventRecord => ({
  eventId: `id-${eventType}`,
  eventType,
  orderId,
  orderURL: `http://x/v1/orders/${orderId}`,
  createdAt: '2026-11-22T03:00:00.000Z',
  sourceAppId: 'app',
});

const apiError = (status: number, title: string) =>
  new CleaverApiError(status, title, 'POST', '/v1/orders/x/confirm', { title, status });

/** A pino-like logger that keeps what it is told. */
function memoryLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message?: string }> = [];
  const at = (level: string) => (fields: object, message?: string) =>
    lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

/** A clock that the loop's sleeps move forward, so backoffs pass without waiting. */
function fakeTime(stopAfterSleeps: number, controller: AbortController) {
  let now = Date.parse('2026-11-22T03:00:00Z');
  const delays: number[] = [];
  return {
    delays,
    now: () => now,
    sleep: async (ms: number) => {
      delays.push(ms);
      now += ms;
      if (delays.length >= stopAfterSleeps) controller.abort();
    },
  };
}

describe('runEventLoop', () => {
  it('acknowledges only handled events, holds back later events of a failed order, keeps going across errors', async () => {
    const controller = new AbortController();
    const a1 = ev('A', 'CREATED');
    const a2 = ev('A', 'ORDER_CANCELLATION_REQUEST');
    const b1 = ev('B', 'CREATED');
    const { client, acked } = scripted([new Error('network down'), [a1, a2, b1], [a1, a2]]);
    const { sleep } = recordingSleep();
    let failA = true;
    const seen: string[] = [];
    const errors: string[] = [];
    const summary = await runEventLoop(
      client,
      async (e) => {
        seen.push(`${e.orderId}:${e.eventType}`);
        if (e.orderId === 'A' && failA) {
          failA = false;
          throw new Error('disk full');
        }
        if (seen.length >= 4) controller.abort();
      },
      {
        signal: controller.signal,
        sleep,
        onError: (error, ctx) => errors.push(`${ctx.stage}:${(error as Error).message}`),
      },
    );
    expect(seen).toEqual(['A:CREATED', 'B:CREATED', 'A:CREATED', 'A:ORDER_CANCELLATION_REQUEST']);
    expect(acked).toEqual([[b1], [a1, a2]]);
    expect(errors).toEqual(['poll:network down', 'handle:disk full']);
    expect(summary).toMatchObject({ handled: 3, acknowledged: 3, failed: 1 });
  });

  it('a failed acknowledgment is reported and the events come back in the next poll', async () => {
    const controller = new AbortController();
    const a1 = ev('A', 'CREATED');
    const s = scripted([[a1], [a1]]);
    s.ackFailures.push(new Error('503'));
    const { sleep } = recordingSleep();
    let calls = 0;
    await runEventLoop(
      s.client,
      async () => {
        calls++;
        if (calls === 2) controller.abort();
      },
      { signal: controller.signal, sleep },
    );
    expect(calls).toBe(2);
    expect(s.acked).toEqual([[a1]]); // the second handling finished, so it was acknowledged even while stopping
  });

  it('waits intervalMs when nothing is pending and stops at once on abort', async () => {
    const controller = new AbortController();
    const { client } = scripted([[], []]);
    const delays: number[] = [];
    const summary = await runEventLoop(client, async () => {}, {
      signal: controller.signal,
      intervalMs: 1234,
      sleep: async (ms) => {
        delays.push(ms);
        if (delays.length === 2) controller.abort();
      },
    });
    expect(delays).toEqual([1234, 1234]);
    expect(summary.polls).toBe(2);
  });
});

describe('runEventLoop: permanent and transient failures', () => {
  it('tells permanent refusals from transient failures', () => {
    expect(isPermanentFailure(apiError(400, 'Order has already same event type'))).toBe(true);
    expect(isPermanentFailure(apiError(400, 'Order is CANCELLED'))).toBe(true);
    expect(isPermanentFailure(apiError(404, 'Order not found'))).toBe(true);
    expect(isPermanentFailure(apiError(422, 'Order has already same event type'))).toBe(true);
    for (const status of [408, 409, 429, 500, 503]) expect(isPermanentFailure(apiError(status, 'x'))).toBe(false);
    expect(isPermanentFailure(new CleaverAuthError(401, 'Unauthorized', 'GET', '/v1/merchant', {}))).toBe(false);
    expect(isPermanentFailure(new CleaverNetworkError('POST', 'http://x', new Error('reset')))).toBe(false);
    expect(isPermanentFailure(new Error('disk full'))).toBe(false);
  });

  it('acknowledges an event refused for good, reports it, and goes on with the order and the rest', async () => {
    const controller = new AbortController();
    const a1 = ev('A', 'CREATED');
    const a2 = ev('A', 'ORDER_CANCELLATION_REQUEST');
    const b1 = ev('B', 'CREATED');
    const { client, acked } = scripted([[a1, a2, b1]]);
    const { logger, lines } = memoryLogger();
    const time = fakeTime(1, controller);
    const seen: string[] = [];
    const summary = await runEventLoop(
      client,
      async (e) => {
        seen.push(`${e.orderId}:${e.eventType}`);
        if (e === a1) throw apiError(400, 'Order has already same event type');
      },
      { signal: controller.signal, logger, ...time },
    );
    expect(seen).toEqual(['A:CREATED', 'A:ORDER_CANCELLATION_REQUEST', 'B:CREATED']);
    expect(acked).toEqual([[a1, a2, b1]]);
    expect(summary).toMatchObject({ polls: 1, handled: 2, failed: 1, givenUp: 1, acknowledged: 3 });
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning.message).toBe('event handler failed; acknowledging the event, it will not come back');
    expect(warning.fields).toMatchObject({ permanent: true, decision: 'acknowledge', attempt: 1 });
    expect((warning.fields.err as CleaverApiError).title).toBe('Order has already same event type');
    expect(warning.fields.event).toMatchObject({ orderId: 'A', eventType: 'CREATED' });
  });

  it('a transient failure holds back only its order, backs off per event, and never slows the polling', async () => {
    const controller = new AbortController();
    const a1 = ev('A', 'CREATED');
    const a2 = ev('A', 'CANCELLED');
    const b1 = ev('B', 'CREATED');
    // The loop sees A's two events in every poll (they stay pending), B's once.
    const batches: EventRecord[][] = [[a1, a2, b1]];
    for (let i = 0; i < 11; i++) batches.push([a1, a2]);
    const { client, acked } = scripted(batches);
    const { logger, lines } = memoryLogger();
    const time = fakeTime(12, controller);
    const attemptsAt: number[] = [];
    const summary = await runEventLoop(
      client,
      async (e) => {
        if (e.orderId === 'A') {
          attemptsAt.push(time.now());
          throw new CleaverNetworkError('GET', 'http://x', new Error('ECONNRESET'));
        }
      },
      { signal: controller.signal, logger, intervalMs: 1000, errorDelayMs: 2000, maxErrorDelayMs: 4000, ...time },
    );
    // The poll cadence stays intervalMs: no loop-wide backoff for one bad event.
    expect(time.delays).toEqual(Array(12).fill(1000));
    expect(summary.polls).toBe(12);
    // B was handled and acknowledged at once; A's later event never overtook A's failing one.
    expect(acked).toEqual([[b1]]);
    // A is retried at the next poll, then after 2 s, 4 s, 4 s… (polls are 1 s apart).
    const t0 = attemptsAt[0];
    expect(attemptsAt.map((t) => (t - t0) / 1000)).toEqual([0, 1, 3, 7, 11]);
    expect(summary).toMatchObject({ handled: 1, failed: 5, givenUp: 0 });
    expect(lines.filter((l) => l.message?.startsWith('event handler failed; the event stays pending'))).toHaveLength(5);
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(1); // the fifth failure in a row is an error
  });

  it('onError decides: retry a refusal, give up a transient failure; async is fine', async () => {
    const controller = new AbortController();
    const a1 = ev('A', 'CREATED');
    const b1 = ev('B', 'CREATED');
    const { client, acked } = scripted([[a1, b1], [a1]]);
    const time = fakeTime(2, controller);
    const contexts: unknown[] = [];
    let refusals = 0;
    await runEventLoop(
      client,
      async (e) => {
        if (e === a1 && refusals++ === 0) throw apiError(400, 'Order is CANCELLED');
        if (e === b1) throw new Error('printer jammed');
      },
      {
        signal: controller.signal,
        ...time,
        onError: async (error, context) => {
          contexts.push({ ...context, error: (error as Error).message });
          return context.event === a1 ? 'retry' : 'acknowledge';
        },
      },
    );
    expect(contexts).toEqual([
      {
        stage: 'handle',
        event: a1,
        attempt: 1,
        decision: 'acknowledge',
        error: 'POST /v1/orders/x/confirm → 400 Order is CANCELLED',
      },
      { stage: 'handle', event: b1, attempt: 1, decision: 'retry', error: 'printer jammed' },
    ]);
    expect(acked).toEqual([[b1], [a1]]);
  });

  it('a failing poll backs off the loop (bounded) and is logged; an answer resets it', async () => {
    const controller = new AbortController();
    const down = new CleaverNetworkError('GET', 'http://x/v1/events:polling', new Error('ECONNREFUSED'), 'connect');
    const { client } = scripted([down, down, down, down, down, [], down]);
    const { logger, lines } = memoryLogger();
    const time = fakeTime(7, controller);
    await runEventLoop(client, async () => {}, {
      signal: controller.signal,
      logger,
      intervalMs: 1000,
      errorDelayMs: 1000,
      maxErrorDelayMs: 5000,
      ...time,
    });
    expect(time.delays).toEqual([1000, 2000, 4000, 5000, 5000, 1000, 1000]);
    expect(lines.filter((l) => l.message === 'polling failed')).toHaveLength(6);
  });

  it('with a deduplicator: occurrences handled elsewhere (a webhook) are acknowledged without the handler', async () => {
    const controller = new AbortController();
    const a1 = ev('A', 'CREATED');
    const b1 = ev('B', 'CREATED');
    const deduplicator = createEventDeduplicator();
    await deduplicator.markHandled({ ...a1 }); // the webhook receiver got it first
    const { client, acked } = scripted([[a1, b1]]);
    const handled: string[] = [];
    const summary = await runEventLoop(client, async (e) => void handled.push(e.orderId), {
      signal: controller.signal,
      deduplicator,
      ...fakeTime(1, controller),
    });
    expect(handled).toEqual(['B']);
    expect(acked).toEqual([[a1, b1]]);
    expect(summary).toMatchObject({ handled: 1, duplicates: 1, acknowledged: 2 });
    expect(await deduplicator.seen(b1)).toBe(true);
  });
});
