// A POS and an operator talking to a test app through HTTP, each call one tick of the test clock
// apart (so createdAt orders the events): the order flow tests' shared vocabulary.
import { expect } from 'vitest';
import { adminHeaders, bearer, type MerchantCredentials, type TestApp } from './test-app.js';

export interface PolledEvent {
  eventId: string;
  eventType: string;
  orderId: string;
  createdAt: string;
  metadata?: unknown;
}

export function orderSession(app: () => TestApp, clock: { advance(ms: number): void }) {
  const tick = () => clock.advance(1000);

  function pos(me: MerchantCredentials) {
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      tick();
      return app().app.inject({ method, url, headers: bearer(me.token), payload: payload as object | undefined });
    };
    return {
      get: (url: string) => call('GET', url),
      post: (url: string, payload?: unknown) => call('POST', url, payload),
      async poll(): Promise<PolledEvent[]> {
        const res = await call('GET', '/v1/events:polling');
        if (res.statusCode === 204) return [];
        expect(res.statusCode).toBe(200);
        return res.json();
      },
      /** Polls, acknowledges everything, returns the event types seen. */
      async drain(): Promise<string[]> {
        const events = await this.poll();
        if (events.length) {
          const ack = await call(
            'POST',
            '/v1/events/acknowledgment',
            events.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
          );
          expect(ack.statusCode).toBe(202);
        }
        return events.map((e) => e.eventType);
      },
    };
  }

  const operator = (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    tick();
    return app().app.inject({
      method,
      url: `/admin/v1${url}`,
      headers: adminHeaders,
      payload: payload as object | undefined,
    });
  };

  return { tick, pos, operator };
}

/** The body of a confirm (spec 4.7) the flow tests send. */
export const confirmBody = { createdAt: '2026-03-02T15:00:00Z', orderExternalCode: 'PDV-1' };
