// POS presence and usage per integration key (issue "Running for years", items 3 and 4): what a
// key does is counted by route group, last-seen times say online / late / offline, and the
// opt-in switch takes a silent merchant off and puts it back when its POS returns.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { expectError } from '../support/expect-error.js';
import { createSimpleOrder } from '../support/orders.js';
import { hookStatements } from '../support/statement-hook.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';

const start = new Date('2026-03-02T15:00:00Z');

async function usageOf(t: TestApp, merchantId: string, keyId: string, hours?: number) {
  const res = await t.app.inject({
    url: `/admin/v1/merchants/${merchantId}/integrationKeys/${keyId}/usage${hours ? `?hours=${hours}` : ''}`,
    headers: adminHeaders,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function merchantStatus(t: TestApp, merchantId: string): Promise<string> {
  const res = await t.app.inject({ url: `/admin/v1/merchants/${merchantId}`, headers: adminHeaders });
  return res.json().status;
}

describe('usage per key and route group', () => {
  it('counts requests, 4xx and 429 per group, with latency, from what the POS did', async () => {
    const clock = manualClock(start);
    const t = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_READ: '3' } });
    try {
      const me = await createMerchant(t.app);
      const order = await createSimpleOrder(t.app, me.merchantId);
      const auth = bearer(me.token);
      await t.app.inject({ url: '/v1/events:polling', headers: auth }); // 200
      await t.app.inject({ url: `/v1/orders/${order.id}`, headers: auth }); // 200
      await t.app.inject({ url: '/v1/orders/00000000-0000-4000-8000-000000000000', headers: auth }); // 404
      await t.app.inject({ url: '/v1/events:polling', headers: auth }); // 429: read budget is 3
      const confirm = { createdAt: order.createdAt, orderExternalCode: 'PDV-9' };
      await t.app.inject({ method: 'POST', url: `/v1/orders/${order.id}/confirm`, headers: auth, payload: confirm });
      await t.app.inject({ method: 'POST', url: `/v1/orders/${order.id}/confirm`, headers: auth, payload: confirm }); // 400
      await t.services.usageRecorder.flush();

      const usage = await usageOf(t, me.merchantId, me.keyId);
      const group = (name: string) => usage.groups.find((g: { group: string }) => g.group === name);
      expect(group('poll')).toMatchObject({ requests: 2, throttled: 1, errors4xx: 0, errors5xx: 0 });
      expect(group('orders-read')).toMatchObject({ requests: 2, errors4xx: 1, throttled: 0 });
      expect(group('order-actions')).toMatchObject({ requests: 2, errors4xx: 1 });
      expect(group('poll').meanLatencyMs).toBeGreaterThanOrEqual(0);
      expect(usage.hourly.map((h: { group: string }) => h.group).sort()).toEqual([
        'order-actions',
        'orders-read',
        'poll',
      ]);
      // Presence counts what worked: the poll that got 429 does not move lastPollAt.
      expect(usage.presence).toMatchObject({ state: 'online', lastPollAt: start.toISOString() });

      // One row per key, minute and group: a minute later the same groups count on new rows.
      clock.advance(61_000);
      await t.app.inject({ url: '/v1/events:polling', headers: auth }); // still 429 (real-time window)
      await t.app.inject({ method: 'POST', url: `/v1/orders/${order.id}/confirm`, headers: auth, payload: confirm }); // 400
      await t.services.usageRecorder.flush();
      const { rows } = await t.database.db.query<{
        minute: Date;
        route_group: string;
        requests: number;
        throttled: number;
      }>(
        'SELECT minute, route_group, requests, throttled FROM key_usage_minutes WHERE key_id = $1 ORDER BY minute, route_group',
        [me.keyId],
      );
      const second = new Date(start.getTime() + 60_000);
      expect(rows.map((r) => [r.minute.toISOString(), r.route_group, r.requests, r.throttled])).toEqual([
        [start.toISOString(), 'order-actions', 2, 0],
        [start.toISOString(), 'orders-read', 2, 0],
        [start.toISOString(), 'poll', 2, 1],
        [second.toISOString(), 'order-actions', 1, 0],
        [second.toISOString(), 'poll', 1, 1],
      ]);
    } finally {
      await t.close();
    }
  });

  it('answers 404 for a key of another merchant and 400 naming hours out of range', async () => {
    const t = await createTestApp();
    try {
      const me = await createMerchant(t.app);
      const other = await createMerchant(t.app, 'Outra');
      const foreign = await t.app.inject({
        url: `/admin/v1/merchants/${me.merchantId}/integrationKeys/${other.keyId}/usage`,
        headers: adminHeaders,
      });
      expectError(foreign, 404, 'Integration key not found');
      const tooLong = await t.app.inject({
        url: `/admin/v1/merchants/${me.merchantId}/integrationKeys/${me.keyId}/usage?hours=1000`,
        headers: adminHeaders,
      });
      expectError(tooLong, 400, 'hours must be <= 168 (query)');
    } finally {
      await t.close();
    }
  });
});

describe('presence', () => {
  it('online, late, offline by the thresholds, shown with each key of the merchant', async () => {
    const clock = manualClock(start);
    const t = await createTestApp({
      clock,
      env: { CLEAVER_PRESENCE_LATE_SEC: '120', CLEAVER_PRESENCE_OFFLINE_SEC: '900' },
    });
    try {
      const me = await createMerchant(t.app);
      await t.app.inject({ url: '/v1/events:polling', headers: bearer(me.token) });
      await t.services.usageRecorder.flush();
      const states: string[] = [];
      for (const advance of [0, 200_000, 800_000]) {
        clock.advance(advance);
        const res = await t.app.inject({ url: `/admin/v1/merchants/${me.merchantId}`, headers: adminHeaders });
        states.push(res.json().integrationKeys[0].presence.state);
      }
      expect(states).toEqual(['online', 'late', 'offline']);
      const metrics = await t.app.inject({ url: '/metrics' });
      expect(metrics.body).toContain('cleaver_pos_keys{state="offline"} 1');
    } finally {
      await t.close();
    }
  });

  it('the opt-in switch takes a silent merchant off and back on, in its history; an operator’s choice stands', async () => {
    const clock = manualClock(start);
    const t = await createTestApp({ clock, env: { CLEAVER_PRESENCE_AUTO_UNAVAILABLE_SEC: '600' } });
    try {
      const me = await createMerchant(t.app);
      const poll = () => t.app.inject({ url: '/v1/events:polling', headers: bearer(me.token) });
      await poll();
      await t.services.usageRecorder.flush();

      expect(await t.services.usage.applyPresenceSwitch()).toEqual({ off: [], on: [] });
      clock.advance(700_000);
      expect(await t.services.usage.applyPresenceSwitch()).toEqual({ off: [me.merchantId], on: [] });
      expect(await merchantStatus(t, me.merchantId)).toBe('UNAVAILABLE');
      // Idempotent: a second run (another worker) changes nothing.
      expect(await t.services.usage.applyPresenceSwitch()).toEqual({ off: [], on: [] });

      await poll();
      await t.services.usageRecorder.flush();
      expect(await t.services.usage.applyPresenceSwitch()).toEqual({ off: [], on: [me.merchantId] });
      expect(await merchantStatus(t, me.merchantId)).toBe('AVAILABLE');

      const history = await t.app.inject({
        url: `/admin/v1/merchants/${me.merchantId}/history`,
        headers: adminHeaders,
      });
      expect(history.json()).toEqual([
        {
          at: new Date(start.getTime() + 700_000).toISOString(),
          kind: 'status',
          detail: { from: 'UNAVAILABLE', to: 'AVAILABLE', by: 'presence', reason: 'the POS is back' },
        },
        {
          at: new Date(start.getTime() + 700_000).toISOString(),
          kind: 'status',
          detail: {
            from: 'AVAILABLE',
            to: 'UNAVAILABLE',
            by: 'presence',
            silentSince: new Date(start.getTime() + 100_000).toISOString(),
          },
        },
      ]);

      // An operator switches it off by hand: presence never turns it back on.
      clock.advance(700_000);
      const off = await t.app.inject({
        method: 'PATCH',
        url: `/admin/v1/merchants/${me.merchantId}`,
        headers: adminHeaders,
        payload: { status: 'UNAVAILABLE' },
      });
      expect(off.statusCode).toBe(200);
      await poll();
      await t.services.usageRecorder.flush();
      expect(await t.services.usage.applyPresenceSwitch()).toEqual({ off: [], on: [] });
      expect(await merchantStatus(t, me.merchantId)).toBe('UNAVAILABLE');
      const latest = await t.app.inject({
        url: `/admin/v1/merchants/${me.merchantId}/history?limit=1`,
        headers: adminHeaders,
      });
      expect(latest.json()[0].detail).toEqual({ from: 'AVAILABLE', to: 'UNAVAILABLE', by: 'operator' });
    } finally {
      await t.close();
    }
  });

  it('off by default: a silent merchant stays as it is', async () => {
    const clock = manualClock(start);
    const t = await createTestApp({ clock });
    try {
      const me = await createMerchant(t.app);
      await t.app.inject({ url: '/v1/events:polling', headers: bearer(me.token) });
      await t.services.usageRecorder.flush();
      clock.advance(30 * 86_400_000);
      expect(await t.services.usage.applyPresenceSwitch()).toEqual({ off: [], on: [] });
      expect(await merchantStatus(t, me.merchantId)).toBe('AVAILABLE');
    } finally {
      await t.close();
    }
  });
});

/** One poll of the key, answered 204. */
async function emptyPoll(t: TestApp, me: { token: string }): Promise<void> {
  const res = await t.app.inject({ url: '/v1/events:polling', headers: bearer(me.token) });
  expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });
}

/** The key's poll counters as written: [minute, requests], oldest first. */
async function pollCounters(t: TestApp, keyId: string): Promise<[string, number][]> {
  const { rows } = await t.database.db.query<{ minute: Date; requests: number }>(
    `SELECT minute, requests FROM key_usage_minutes WHERE key_id = $1 AND route_group = 'poll' ORDER BY minute`,
    [keyId],
  );
  return rows.map((r) => [new Date(r.minute).toISOString(), Number(r.requests)]);
}

describe('writing the counters', () => {
  it('a turning minute starts new figures, within one flush and from one flush to the next', async () => {
    const clock = manualClock(start);
    const t = await createTestApp({ clock });
    try {
      const me = await createMerchant(t.app);
      const poll = () => emptyPoll(t, me);
      const rows = () => pollCounters(t, me.keyId);
      await poll();
      await poll();
      clock.advance(60_000); // the next minute, same flush
      await poll();
      await t.services.usageRecorder.flush();
      await poll(); // same minute, after the flush
      clock.advance(60_000);
      await poll();
      await t.services.usageRecorder.flush();
      expect(await rows()).toEqual([
        ['2026-03-02T15:00:00.000Z', 2],
        ['2026-03-02T15:01:00.000Z', 2],
        ['2026-03-02T15:02:00.000Z', 1],
      ]);
      // A clock set back to a minute already counted adds to that minute's row.
      clock.advance(60_000);
      await poll();
      clock.advance(-120_000);
      await poll();
      await t.services.usageRecorder.flush({ endedMinutesOnly: true });
      expect(await rows()).toEqual([
        ['2026-03-02T15:00:00.000Z', 2],
        ['2026-03-02T15:01:00.000Z', 2],
        ['2026-03-02T15:02:00.000Z', 1],
        ['2026-03-02T15:03:00.000Z', 1],
      ]);
      await t.services.usageRecorder.flush();
      expect(await rows()).toEqual([
        ['2026-03-02T15:00:00.000Z', 2],
        ['2026-03-02T15:01:00.000Z', 3],
        ['2026-03-02T15:02:00.000Z', 1],
        ['2026-03-02T15:03:00.000Z', 1],
      ]);
    } finally {
      await t.close();
    }
  });

  it("the timer's flush writes a minute once it is over, each counter as one row, and presence at once", async () => {
    const clock = manualClock(start);
    const t = await createTestApp({ clock });
    let inserts = 0;
    const undo = hookStatements(t.database.db, (sql) => {
      if (sql.includes('INSERT INTO key_usage_minutes')) inserts += 1;
    });
    try {
      const me = await createMerchant(t.app);
      const poll = () => emptyPoll(t, me);
      const rows = () => pollCounters(t, me.keyId);
      const endedOnly = () => t.services.usageRecorder.flush({ endedMinutesOnly: true });

      await poll();
      clock.advance(30_000);
      await poll();
      await endedOnly();
      // The minute is still counting: no row yet, but the POS's presence is written.
      expect(await rows()).toEqual([]);
      expect(inserts).toBe(0);
      expect((await usageOf(t, me.merchantId, me.keyId)).presence).toMatchObject({
        lastPollAt: new Date(start.getTime() + 30_000).toISOString(),
      });

      clock.advance(30_000); // 15:01:00: the first minute is over
      await poll();
      await endedOnly();
      expect(await rows()).toEqual([['2026-03-02T15:00:00.000Z', 2]]);
      expect(inserts).toBe(1);

      // The counting minute goes on in memory after a flush, and stop's flush writes it all.
      clock.advance(10_000);
      await poll();
      await endedOnly();
      expect(await rows()).toEqual([['2026-03-02T15:00:00.000Z', 2]]);
      await t.services.usageRecorder.flush();
      expect(await rows()).toEqual([
        ['2026-03-02T15:00:00.000Z', 2],
        ['2026-03-02T15:01:00.000Z', 2],
      ]);
    } finally {
      undo();
      await t.close();
    }
  });

  it('a large flush goes out in statements of at most 2,000 rows, every row once', async () => {
    const clock = manualClock(start);
    const t = await createTestApp({ clock });
    const statements = { usage: 0, presence: 0 };
    const undo = hookStatements(t.database.db, (sql) => {
      if (sql.includes('INSERT INTO key_usage_minutes')) statements.usage += 1;
      if (sql.includes('INSERT INTO key_presence')) statements.presence += 1;
    });
    try {
      const keys = Array.from({ length: 4_500 }, (_, i) => ({
        keyId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        merchantId: '00000000-0000-4000-8000-000000000001',
      }));
      for (const key of keys) t.services.usageRecorder.record(key, 'poll', 204, 1);
      await t.services.usageRecorder.flush();
      expect(statements).toEqual({ usage: 3, presence: 3 });
      const count = async (table: string) =>
        Number((await t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n);
      expect(await count('key_usage_minutes')).toBe(4_500);
      expect(await count('key_presence')).toBe(4_500);
    } finally {
      undo();
      await t.close();
    }
  });

  it('a flush that fails half-way writes nothing, and the next one writes every figure once', async () => {
    const clock = manualClock(start);
    const t = await createTestApp({ clock });
    // The presence statement fails once, as if the connection dropped after the usage statement
    // went through; wherever the recorder runs it (alone or in a transaction).
    let failures = 1;
    const undo = hookStatements(t.database.db, (sql) => {
      if (failures > 0 && sql.includes('INSERT INTO key_presence')) {
        failures -= 1;
        throw Object.assign(new Error('terminating connection'), { code: '57P01' });
      }
    });
    try {
      const me = await createMerchant(t.app);
      const auth = bearer(me.token);
      const first = await t.app.inject({ url: '/v1/events:polling', headers: auth });
      expect(first.statusCode).toBe(204);
      await t.app.inject({ url: '/v1/events:polling', headers: auth });
      await t.services.usageRecorder.flush();
      expect(failures).toBe(0);
      // Nothing of the failed flush is there: neither its counters nor its presence.
      const during = await usageOf(t, me.merchantId, me.keyId);
      expect(during.groups.find((g: { group: string }) => g.group === 'poll')).toBeUndefined();
      expect(during.presence).toMatchObject({ lastPollAt: null });

      // Same minute, one more poll: kept figures and new ones go out together, each once.
      clock.advance(1_000);
      await t.app.inject({ url: '/v1/events:polling', headers: auth });
      await t.services.usageRecorder.flush();
      const after = await usageOf(t, me.merchantId, me.keyId);
      expect(after.groups.find((g: { group: string }) => g.group === 'poll')).toMatchObject({ requests: 3 });
      expect(after.presence).toMatchObject({ lastPollAt: new Date(start.getTime() + 1_000).toISOString() });
    } finally {
      undo();
      await t.close();
    }
  });

  // What is held in memory does not depend on the database: once, on PGlite.
  it.runIf(testDbKind() === 'pglite')(
    'a key idle for ten minutes is forgotten in memory, and counted as before when it comes back',
    async () => {
      const clock = manualClock(start);
      const t = await createTestApp({ clock });
      try {
        const idle = await createMerchant(t.app);
        const busy = await createMerchant(t.app);
        const recorder = t.services.usageRecorder;
        await emptyPoll(t, idle);
        await recorder.flush();
        clock.advance(5 * 60_000);
        await emptyPoll(t, busy);
        await recorder.flush();
        expect(recorder.keysHeld()).toBe(2);

        // 15:11: the first key has made no request for 11 minutes and has nothing left to write.
        clock.advance(6 * 60_000);
        await recorder.flush();
        expect(recorder.keysHeld()).toBe(1);

        await emptyPoll(t, idle);
        await recorder.flush();
        expect(recorder.keysHeld()).toBe(2);
        expect(await pollCounters(t, idle.keyId)).toEqual([
          ['2026-03-02T15:00:00.000Z', 1],
          ['2026-03-02T15:11:00.000Z', 1],
        ]);
        expect((await usageOf(t, idle.merchantId, idle.keyId)).presence).toMatchObject({
          lastPollAt: new Date(start.getTime() + 11 * 60_000).toISOString(),
        });
      } finally {
        await t.close();
      }
    },
  );
});
