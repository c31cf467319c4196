// D36: `merchant PRESENCE_CHANGED {keyId, state}` items. Presence is computed on read; the
// worker's presence check announces each key's change of state once, in the transaction that
// records the state announced, on a controllable clock: online at the first request, late and
// offline as the POS stays silent, online again when it polls; nothing when nothing changed, and
// one item when two workers check at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

interface Item {
  kind: string;
  type: string;
  merchantId: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

async function presenceItems(after: string, merchantId: string): Promise<{ items: Item[]; next: string }> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/admin/v1/feed?after=${after}&kinds=merchant&merchantId=${merchantId}`,
    headers: adminHeaders,
  });
  expect(res.statusCode).toBe(200);
  const page = res.json() as { items: Item[]; next: string };
  return { items: page.items.filter((i) => i.type === 'PRESENCE_CHANGED'), next: page.next };
}

describe('presence changes on the platform feed', () => {
  it('announces online, late, offline and online again, each once, at the time of the check', async () => {
    const me = await createMerchant(t.app, 'Açougue Presença');
    let cursor = (await presenceItems('0', me.merchantId)).next;
    const poll = async () => {
      const res = await t.app.inject({ url: '/v1/events:polling', headers: bearer(me.token) });
      expect(res.statusCode).toBe(204);
      await t.services.usageRecorder.flush();
    };
    const step = async (advanceMs: number, expected: string[]) => {
      clock.advance(advanceMs);
      const announced = (await t.services.usage.announcePresenceChanges()).filter((c) => c.keyId === me.keyId);
      expect(announced.map((c) => c.state)).toEqual(expected);
      const page = await presenceItems(cursor, me.merchantId);
      cursor = page.next;
      expect(page.items).toEqual(
        expected.map((state) => ({
          id: expect.any(String),
          cursor: expect.any(String),
          kind: 'merchant',
          type: 'PRESENCE_CHANGED',
          merchantId: me.merchantId,
          occurredAt: clock.now().toISOString(),
          data: { keyId: me.keyId, state },
        })),
      );
    };

    // A key that has taken a token but made no request yet: nothing to announce.
    await step(0, []);
    await poll();
    await step(0, ['online']);
    await step(60_000, []); // 60 s silent: still online (late after 120 s)
    await step(61_000, ['late']);
    await step(600_000, []); // 721 s: still late (offline after 900 s)
    await step(180_000, ['offline']);
    await step(3_600_000, []);
    await poll();
    await step(0, ['online']);
  });

  it('announces a change once when two workers check at once', async () => {
    const me = await createMerchant(t.app, 'Açougue Dois Workers');
    const res = await t.app.inject({ url: '/v1/events:polling', headers: bearer(me.token) });
    expect(res.statusCode).toBe(204);
    await t.services.usageRecorder.flush();
    const start = (await presenceItems('0', me.merchantId)).next;
    const both = await Promise.all([
      t.services.usage.announcePresenceChanges(),
      t.services.usage.announcePresenceChanges(),
    ]);
    const ours = both.flat().filter((c) => c.keyId === me.keyId);
    expect(ours).toEqual([{ keyId: me.keyId, state: 'online' }]);
    const { items } = await presenceItems(start, me.merchantId);
    expect(items.map((i) => i.data)).toEqual([{ keyId: me.keyId, state: 'online' }]);
  });
});
