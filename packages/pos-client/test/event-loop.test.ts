import { describe, expect, it } from 'vitest';
import { type EventRecord, runEventLoop } from '../src/index.js';
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
