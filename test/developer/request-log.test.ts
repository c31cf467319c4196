// The integrator's request log (what Stripe's request log gives): a POS reads the last
// 1,000 requests of its own key, kept 24 hours, with GET /v1/developer/requests and its own token:
// method, path, status, error title, duration, the X-Request-Id its answer carried; a failed
// request's body up to 2 KB with secrets redacted. A key never sees another key's requests.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import type { RequestLogEntry } from '../../src/modules/usage/index.js';
import { expectError } from '../support/expect-error.js';
import { createSimpleOrder } from '../support/orders.js';
import { addIntegrationKey, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const UNKNOWN_ORDER = '00000000-0000-4000-8000-000000000000';
const LIFTED = { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' };

async function readLog(
  t: TestApp,
  token: string,
  query = '',
): Promise<{ items: RequestLogEntry[]; next: string | null }> {
  const res = await t.app.inject({ url: `/v1/developer/requests${query}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The requests stored for a key (a row holds one flush's requests of the key). */
async function rowsOfKey(t: TestApp, keyId: string): Promise<number> {
  const { rows } = await t.database.db.query<{ n: number }>(
    'SELECT coalesce(sum(entries), 0)::int AS n FROM request_log_batches WHERE key_id = $1',
    [keyId],
  );
  return rows[0].n;
}

describe('GET /v1/developer/requests', () => {
  it('lists what the key asked and was answered, newest first, with the X-Request-Id of each answer', async () => {
    const t = await createTestApp({ env: LIFTED });
    try {
      const me = await createMerchant(t.app);
      const auth = bearer(me.token);
      await createSimpleOrder(t.app, me.merchantId);
      const poll = await t.app.inject({ url: '/v1/events:polling', headers: auth });
      expect(poll.statusCode).toBe(200);
      // An empty poll (204) is not logged: it would crowd out everything else.
      const empty = await t.app.inject({ url: '/v1/events:polling?eventType=CANCELLED', headers: auth });
      expect(empty.statusCode).toBe(204);
      const missing = await t.app.inject({ url: `/v1/orders/${UNKNOWN_ORDER}`, headers: auth });
      const traced = await t.app.inject({
        url: '/v1/merchant',
        headers: { ...auth, 'x-request-id': 'pos-trace-42' },
      });
      // Refused before the token is known: no key to log it under.
      const anonymous = await t.app.inject({ url: '/v1/events:polling' });
      expect(anonymous.statusCode).toBe(401);

      const log = await readLog(t, me.token);
      expect(log.next).toBeNull();
      expect(log.items.map((r) => [r.method, r.path, r.status, r.errorTitle])).toEqual([
        ['GET', '/v1/merchant', traced.statusCode, null],
        ['GET', `/v1/orders/${UNKNOWN_ORDER}`, 404, 'Order not found'],
        ['GET', '/v1/events:polling', poll.statusCode, null],
      ]);
      expect(log.items.map((r) => r.requestId)).toEqual([
        'pos-trace-42',
        missing.headers['x-request-id'],
        poll.headers['x-request-id'],
      ]);
      for (const r of log.items) {
        expect(r.durationMs).toBeGreaterThanOrEqual(0);
        expect(Date.parse(r.at)).toBeGreaterThan(Date.now() - 60_000);
        // A GET has no body; the 404's is null too.
        expect(r.requestBody).toBeNull();
      }
      // Reading the log is not itself logged.
      expect((await readLog(t, me.token)).items).toHaveLength(3);
    } finally {
      await t.close();
    }
  });

  it("keeps a failed request's body with every secret redacted, cut at 2 KB", async () => {
    const t = await createTestApp({ env: LIFTED });
    try {
      const me = await createMerchant(t.app);
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/v1/merchantOnboarding',
        headers: bearer(me.token),
        payload: {
          ordersWebhookURL: 'not a url',
          getMerchantURL: { baseURL: 'https://pos.example.com', apiKey: 'pos-api-key-LEAK' },
          client_secret: 'cs-LEAK',
          clientSecret: 'cs2-LEAK',
          password: 'pw-LEAK',
          note: {
            access_token: 'at-LEAK',
            refreshToken: 'rt-LEAK',
            signature: 'sig-LEAK',
            authorization: 'Bearer LEAK',
          },
          items: [{ deliveryCode: '1234-LEAK', name: 'Picanha' }],
          harmless: 'kept',
        },
      });
      expect(bad.statusCode).toBe(400);
      const big = await t.app.inject({
        method: 'PUT',
        url: '/v1/merchantUpdate',
        headers: bearer(me.token),
        payload: {
          entityType: 'NOT_A_TYPE',
          updatedObjects: Array.from({ length: 200 }, (_, i) => ({
            id: `item-${i}`,
            name: 'Picanha maturada',
            secret: 'x',
          })),
        },
      });
      expect(big.statusCode).toBe(400);

      const [cut, redacted] = (await readLog(t, me.token, '?failed=true')).items;
      expect(redacted).toMatchObject({ method: 'PUT', path: '/v1/merchantOnboarding', status: 400 });
      expect(redacted.errorTitle).toBe(bad.json().title);
      expect(redacted.requestBodyTruncated).toBe(false);
      expect(redacted.requestBody).not.toContain('LEAK');
      expect(JSON.parse(redacted.requestBody as string)).toEqual({
        ordersWebhookURL: 'not a url',
        getMerchantURL: { baseURL: 'https://pos.example.com', apiKey: '[redacted]' },
        client_secret: '[redacted]',
        clientSecret: '[redacted]',
        password: '[redacted]',
        note: {
          access_token: '[redacted]',
          refreshToken: '[redacted]',
          signature: '[redacted]',
          authorization: '[redacted]',
        },
        items: [{ deliveryCode: '[redacted]', name: 'Picanha' }],
        harmless: 'kept',
      });

      expect(cut).toMatchObject({ path: '/v1/merchantUpdate', status: 400, requestBodyTruncated: true });
      expect(Buffer.byteLength(cut.requestBody as string)).toBeLessThanOrEqual(2048);
      expect(Buffer.byteLength(cut.requestBody as string)).toBeGreaterThan(2000);
      expect(cut.requestBody).toMatch(/^\{"entityType":"NOT_A_TYPE","updatedObjects":\[\{"id":"item-0",/);
      expect(cut.requestBody).toContain('"secret":"[redacted]"');
      expect(cut.requestBody).not.toContain('"secret":"x"');
    } finally {
      await t.close();
    }
  });

  it('a key sees its own requests only: never another key of its merchant, nor another merchant', async () => {
    const t = await createTestApp({ env: LIFTED });
    try {
      const shop = await createMerchant(t.app, 'Açougue Um');
      const second = await addIntegrationKey(t.app, shop.merchantId);
      const other = await createMerchant(t.app, 'Açougue Dois');
      const ids = new Map<string, string[]>();
      for (const [name, token] of [
        ['first', shop.token],
        ['second', second.token],
        ['other', other.token],
      ] as const) {
        const list: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await t.app.inject({ url: `/v1/orders/${UNKNOWN_ORDER}`, headers: bearer(token) });
          list.unshift(res.headers['x-request-id'] as string);
        }
        ids.set(name, list);
      }
      expect((await readLog(t, shop.token)).items.map((r) => r.requestId)).toEqual(ids.get('first'));
      expect((await readLog(t, second.token)).items.map((r) => r.requestId)).toEqual(ids.get('second'));
      expect((await readLog(t, other.token)).items.map((r) => r.requestId)).toEqual(ids.get('other'));
    } finally {
      await t.close();
    }
  });

  it('keeps the last 1,000 requests of a key, a page at a time, and filters failed ones or one status', async () => {
    const t = await createTestApp({ env: LIFTED });
    try {
      const me = await createMerchant(t.app);
      const auth = bearer(me.token);
      const sent: string[] = [];
      for (let i = 0; i < 1_060; i++) {
        // Two kinds: a refused filter (400, no database) and an unknown order (404).
        const url = i % 2 === 0 ? '/v1/events:polling?eventType=NOPE' : `/v1/orders/${UNKNOWN_ORDER}`;
        const res = await t.app.inject({ url, headers: auth });
        sent.push(res.headers['x-request-id'] as string);
      }
      const newestFirst = sent.slice(-1000).reverse();
      const all = await readLog(t, me.token, '?limit=1000');
      expect(all.items.map((r) => r.requestId)).toEqual(newestFirst);
      expect(all.next).toBeNull();
      // Stored: trimmed back to the newest 1,000 after every 100 rows a process wrote for the key.
      expect(await rowsOfKey(t, me.keyId)).toBeLessThanOrEqual(1_100);

      // Pages of 300: the same order, nothing twice, nothing skipped.
      const paged: string[] = [];
      let before = '';
      for (;;) {
        const page = await readLog(t, me.token, `?limit=300${before ? `&before=${before}` : ''}`);
        paged.push(...page.items.map((r) => r.requestId));
        if (!page.next) break;
        before = page.next;
      }
      expect(paged).toEqual(newestFirst);

      const notFound = await readLog(t, me.token, '?status=404&limit=1000');
      expect(notFound.items).toHaveLength(500);
      expect(notFound.items.every((r) => r.status === 404 && r.errorTitle === 'Order not found')).toBe(true);
      expect((await readLog(t, me.token, '?failed=true&limit=1000')).items).toHaveLength(1000);
      expect((await readLog(t, me.token, '?failed=false&limit=5')).items).toHaveLength(5);
      expect((await readLog(t, me.token, '?status=200')).items).toEqual([]);
      // The default page is 50.
      expect((await readLog(t, me.token)).items).toHaveLength(50);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('a key past 1,000 requests in one second keeps its newest, and the next second starts clean', async () => {
    const t = await createTestApp({ env: LIFTED });
    try {
      const me = await createMerchant(t.app);
      const log = t.services.requestLog;
      const principal = { keyId: me.keyId, merchantId: me.merchantId };
      const send = (id: string, status: number) =>
        log.record(principal, { id, method: 'GET', url: `/v1/orders/${id}` }, status, 1);
      // More than a batch holds before any flush: the oldest are overwritten in place.
      for (let i = 0; i < 1_500; i++) send(`r${i}`, i % 2 ? 200 : 404);
      await log.flush();
      // Fewer in the next interval: the slots the first one left must not leak into it.
      for (let i = 0; i < 3; i++) send(`s${i}`, 201);
      const page = await log.list(me.keyId, { limit: 1000 });
      const expected = ['s2', 's1', 's0', ...Array.from({ length: 997 }, (_, i) => `r${1_499 - i}`)];
      expect(page.items.map((r) => r.requestId)).toEqual(expected);
      expect(page.items.every((r) => r.path === `/v1/orders/${r.requestId}`)).toBe(true);
      const statusOf = (id: string) => (id.startsWith('s') ? 201 : Number(id.slice(1)) % 2 ? 200 : 404);
      expect(page.items.every((r) => r.status === statusOf(r.requestId))).toBe(true);
      expect(page.next).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('reads batches newest first by their number, across 9→10 and 99→100, and pages reach the newest', async () => {
    const t = await createTestApp({ env: LIFTED });
    try {
      const me = await createMerchant(t.app);
      const log = t.services.requestLog;
      const principal = { keyId: me.keyId, merchantId: me.merchantId };
      // One flush per request: 130 batches, numbered past 9, 99 and 100. Sorted as text, batch 99
      // came above 130 and 9 above 10, and the newest page held old requests.
      const sent: string[] = [];
      for (let i = 0; i < 130; i++) {
        log.record(principal, { id: `q${i}`, method: 'GET', url: `/v1/orders/q${i}` }, 200, 1);
        await log.flush();
        sent.push(`q${i}`);
      }
      const { rows } = await t.database.db.query<{ n: number; top: string }>(
        'SELECT count(*)::int AS n, max(seq)::text AS top FROM request_log_batches WHERE key_id = $1',
        [me.keyId],
      );
      expect(rows[0].n).toBe(130);
      expect(Number(rows[0].top)).toBeGreaterThanOrEqual(130);
      const newestFirst = [...sent].reverse();
      expect((await log.list(me.keyId, { limit: 5 })).items.map((r) => r.requestId)).toEqual(newestFirst.slice(0, 5));
      // Pages of 7 over HTTP: every request once, newest first.
      const paged: string[] = [];
      let before = '';
      for (;;) {
        const page = await readLog(t, me.token, `?limit=7${before ? `&before=${before}` : ''}`);
        paged.push(...page.items.map((r) => r.requestId));
        if (!page.next) break;
        before = page.next;
      }
      expect(paged).toEqual(newestFirst);
    } finally {
      await t.close();
    }
  });

  it('keeps requests 24 hours: older ones leave the log at once and the table with retention', async () => {
    const clock = manualClock(new Date('2026-03-02T10:00:00Z'));
    const t = await createTestApp({ clock, env: LIFTED });
    try {
      const me = await createMerchant(t.app);
      const old = await t.app.inject({ url: `/v1/orders/${UNKNOWN_ORDER}`, headers: bearer(me.token) });
      // Tokens last 12 hours: a POS takes new ones, as it would.
      const renew = async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/oauth/token',
          payload: { client_id: me.merchantId, client_secret: me.clientSecret, grant_type: 'client_credentials' },
        });
        return res.json().access_token as string;
      };
      clock.advance(23 * 3_600_000);
      let token = await renew();
      expect((await readLog(t, token)).items.map((r) => r.requestId)).toEqual([old.headers['x-request-id']]);
      const recent = await t.app.inject({ url: `/v1/orders/${UNKNOWN_ORDER}`, headers: bearer(token) });
      clock.advance(3_600_000 + 1);
      token = await renew();
      const log = await readLog(t, token);
      expect(log.items.map((r) => r.requestId)).toEqual([recent.headers['x-request-id']]);
      expect(log.items[0].at).toBe('2026-03-03T09:00:00.000Z');

      expect(await rowsOfKey(t, me.keyId)).toBe(2);
      const pruned = await t.services.retention.runOnce(10_000);
      expect(pruned.request_log).toBe(1);
      expect(await rowsOfKey(t, me.keyId)).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('refuses bad query parameters with 400 naming the parameter', async () => {
    const t = await createTestApp({ env: LIFTED });
    try {
      const me = await createMerchant(t.app);
      const get = (query: string) => t.app.inject({ url: `/v1/developer/requests${query}`, headers: bearer(me.token) });
      expectError(await get('?limit=0'), 400, 'limit must be >= 1 (query)');
      expectError(await get('?limit=1001'), 400, 'limit must be <= 1000 (query)');
      expectError(await get('?limit=ten'), 400, 'limit must be integer (query)');
      expectError(await get('?failed=maybe'), 400, 'failed must be boolean (query)');
      expectError(await get('?status=99'), 400, 'status must be >= 100 (query)');
      expectError(await get('?before=abc'), 400, 'before must match pattern "^[0-9]{1,18}$" (query)');
      const hooks = (query: string) =>
        t.app.inject({ url: `/v1/developer/webhooks${query}`, headers: bearer(me.token) });
      expectError(await hooks('?limit=101'), 400, 'limit must be <= 100 (query)');
      // Without a valid token: 401, as every /v1 route.
      const anonymous = await t.app.inject({ url: '/v1/developer/requests' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ status: 401 });
    } finally {
      await t.close();
    }
  });
});
