// The pending-keys cache (docs/adr/0012-pending-keys-cache.md): a poll of a key known to have
// nothing pending answers 204 without the database, and an event committed before a poll begins
// is never answered 204 — in one process (both databases), and across two apps on one PostgreSQL.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { CAUGHT_UP_GAP_MS, openPostgres } from '../../src/db/postgres.js';
import { eventIdOf } from '../../src/modules/events/index.js';
import { createPendingKeys, KNOWN_EMPTY_MAX_MS, KNOWN_EMPTY_MS } from '../../src/modules/events/pending-keys.js';
import { generatedRuns, seededRandom } from '../support/generated-inputs.js';
import { createSimpleOrder } from '../support/orders.js';
import { hookStatements } from '../support/statement-hook.js';
import { bearer, createMerchant, createTestApp, type MerchantCredentials, type TestApp } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';

const env = { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env });
});
afterAll(() => t.close());

interface Setup {
  me: MerchantCredentials;
  orderId: string;
}

/** A merchant with one order whose CREATED is acknowledged: nothing pending. */
async function quietMerchant(app: TestApp, name: string): Promise<Setup> {
  const me = await createMerchant(app.app, name);
  const order = await createSimpleOrder(app.app, me.merchantId);
  await acknowledge(app, me, order.id);
  return { me, orderId: order.id };
}

async function acknowledge(app: TestApp, me: MerchantCredentials, orderId: string): Promise<void> {
  const res = await app.app.inject({
    method: 'POST',
    url: '/v1/events/acknowledgment',
    headers: bearer(me.token),
    payload: [{ id: eventIdOf('CREATED'), orderId, eventType: 'CREATED' }],
  });
  expect(res.statusCode).toBe(202);
}

/** The fan-out as an order's change runs it: CREATED again re-opens the event (D1) in one transaction. */
const reopen = (app: TestApp, s: Setup) =>
  app.services.db.transaction((tx) =>
    app.services.events.recordEvent(tx, { merchantId: s.me.merchantId, orderId: s.orderId, eventType: 'CREATED' }),
  );

async function poll(app: TestApp, me: MerchantCredentials, query = ''): Promise<number> {
  const res = await app.app.inject({ method: 'GET', url: `/v1/events:polling${query}`, headers: bearer(me.token) });
  if (res.statusCode === 200) expect(res.json()).toHaveLength(1);
  else expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });
  return res.statusCode;
}

/** Counts the reads of pending receipts sent through `db` while `fn` runs. */
async function pendingReads(db: Db, fn: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  const undo = hookStatements(db, (sql) => {
    if (sql.includes('FROM event_receipts r')) reads += 1;
  });
  try {
    await fn();
  } finally {
    undo();
  }
  return reads;
}

/**
 * Rounds of commits and polls started at random turns of the event loop: every poll that began
 * after the commit resolved must see the event. `writer` commits, `reader` is polled.
 */
async function interleave(writer: TestApp, reader: TestApp, s: Setup, rounds: number, salt: number) {
  const random = seededRandom(salt);
  const turns = (n: number) =>
    new Promise<void>((resolve) => {
      const step = (left: number) => (left <= 0 ? resolve() : setImmediate(() => step(left - 1)));
      step(n);
    });
  let late = 0;
  for (let round = 0; round < rounds; round++) {
    expect(await poll(reader, s.me)).toBe(204); // learned: nothing pending
    let committed = false;
    const commit = reopen(writer, s).then(() => {
      committed = true;
    });
    const polls = Array.from({ length: 6 }, async () => {
      await turns(Math.floor(random() * 12));
      const after = committed;
      const status = await poll(reader, s.me);
      if (after && status !== 200) late += 1;
      return { after, status };
    });
    await commit;
    await Promise.all(polls);
    expect(await poll(reader, s.me)).toBe(200);
    await acknowledge(writer, s.me, s.orderId);
  }
  expect(late).toBe(0);
}

describe('pending-keys cache (ADR 12)', () => {
  it('a key known to have nothing pending is answered 204 without reading its receipts; the fan-out forgets it', async () => {
    const s = await quietMerchant(t, 'Açougue Cache');
    expect(await pendingReads(t.services.db, () => poll(t, s.me))).toBe(1); // learns
    expect(await pendingReads(t.services.db, async () => expect(await poll(t, s.me)).toBe(204))).toBe(0);
    // A filter is answered from the same knowledge: nothing pending, none of these types either.
    expect(await pendingReads(t.services.db, () => poll(t, s.me, '?eventType=CREATED'))).toBe(0);
    await reopen(t, s);
    expect(await pendingReads(t.services.db, async () => expect(await poll(t, s.me)).toBe(200))).toBe(1);
    // A filtered read that finds nothing does not teach that the key has nothing pending.
    expect(await poll(t, s.me, '?eventType=CONFIRMED')).toBe(204);
    expect(await pendingReads(t.services.db, async () => expect(await poll(t, s.me)).toBe(200))).toBe(1);
  });

  it('a key polled at least every KNOWN_EMPTY_MS stays known, up to KNOWN_EMPTY_MAX_MS since its read', async () => {
    let at = 1_000_000;
    const keys = createPendingKeys({ db: t.services.db, now: () => at });
    await keys.start();
    try {
      const learn = (keyId: string) => keys.endRead(keys.beginRead(keyId), true);
      learn('polled');
      // A POS polling every 30 s: answered from memory past the first KNOWN_EMPTY_MS…
      const answered: boolean[] = [];
      for (let since = 30_000; since < KNOWN_EMPTY_MAX_MS; since += 30_000) {
        at += 30_000;
        answered.push(await keys.knownEmpty('polled'));
      }
      expect(answered).toEqual(Array(KNOWN_EMPTY_MAX_MS / 30_000 - 1).fill(true));
      // …until the database is asked again, KNOWN_EMPTY_MAX_MS after it last answered.
      at += 30_000;
      expect(await keys.knownEmpty('polled')).toBe(false);
      learn('polled');
      expect(await keys.knownEmpty('polled')).toBe(true);
      // A key not polled for KNOWN_EMPTY_MS is asked again.
      learn('quiet');
      at += KNOWN_EMPTY_MS;
      expect(await keys.knownEmpty('quiet')).toBe(false);
    } finally {
      await keys.stop();
    }
  });

  it('a read under way when a receipt commits does not mark the key: the next poll sees the event', async () => {
    const s = await quietMerchant(t, 'Açougue Corrida');
    // The poll's read runs (before the commit: it sees nothing), and its answer is held until
    // the commit and its notification are through.
    const db = t.services.db;
    const { query } = db;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reading = () => {};
    const readDone = new Promise<void>((resolve) => {
      reading = resolve;
    });
    db.query = (async (sql: string, ...rest: unknown[]) => {
      const result = await (query as (...a: unknown[]) => Promise<unknown>).call(db, sql, ...rest);
      if (sql.includes('FROM event_receipts r')) {
        reading();
        await held;
      }
      return result;
    }) as Db['query'];
    try {
      const first = poll(t, s.me);
      await readDone;
      await reopen(t, s);
      await db.caughtUp('cleaver_event_receipts');
      release();
      expect(await first).toBe(204); // began before the commit: nothing pending then
    } finally {
      db.query = query;
    }
    expect(await poll(t, s.me)).toBe(200);
  });

  it('interleaved commits and polls: an event committed before a poll begins is never answered 204', async () => {
    const s = await quietMerchant(t, 'Açougue Intercalado');
    await interleave(t, t, s, generatedRuns(100, 8), 39);
  });

  it.runIf(testDbKind() === 'postgres')(
    'a lost notification connection forgets everything: the poll reads the database',
    async () => {
      const s = await quietMerchant(t, 'Açougue Queda');
      expect(await poll(t, s.me)).toBe(204);
      expect(await pendingReads(t.services.db, () => poll(t, s.me))).toBe(0);
      // The listening connection is cut; the event's notification goes nowhere.
      const admin = new pg.Client({ connectionString: t.database.url });
      await admin.connect();
      try {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'cleaver listen cleaver_event_receipts'`,
        );
        expect(rowCount).toBe(1);
      } finally {
        await admin.end();
      }
      await reopen(t, s);
      expect(await poll(t, s.me)).toBe(200);
      await acknowledge(t, s.me, s.orderId);
      // Back on a new connection, it learns again.
      await expect
        .poll(() =>
          t.services.db.caughtUp('cleaver_event_receipts').then(
            () => true,
            () => false,
          ),
        )
        .toBe(true);
      expect(await poll(t, s.me)).toBe(204);
      expect(await pendingReads(t.services.db, () => poll(t, s.me))).toBe(0);
    },
  );

  it.runIf(testDbKind() === 'postgres')('catching up: round trips start at least the gap apart', async () => {
    const db = t.services.db;
    // Each call after the previous one answered needs a round trip sent after it began: twenty
    // in a row cannot take less than nineteen gaps.
    const started = performance.now();
    for (let i = 0; i < 20; i++) await db.caughtUp('cleaver_event_receipts');
    expect(performance.now() - started).toBeGreaterThanOrEqual(19 * CAUGHT_UP_GAP_MS);
  });

  describe.runIf(testDbKind() === 'postgres')('two apps on one PostgreSQL', () => {
    let other: TestApp;
    let otherDb: Db;
    beforeAll(async () => {
      // A second process as far as the cache can tell: its own pool and its own listener.
      const url = t.database.url as string;
      otherDb = openPostgres({ connectionString: url, max: 4 });
      other = await createTestApp({
        env,
        database: { db: otherDb, kind: 'postgres', url, close: () => otherDb.close() },
      });
    });
    afterAll(async () => {
      await other.close();
      await otherDb.close();
    });

    it('an event committed through one app is never answered 204 by the other', async () => {
      const s = await quietMerchant(t, 'Açougue Dois Processos');
      // The key is known empty in the other app; the commit goes through the first.
      expect(await poll(other, s.me)).toBe(204);
      expect(await pendingReads(otherDb, () => poll(other, s.me))).toBe(0);
      await reopen(t, s);
      expect(await poll(other, s.me)).toBe(200);
      await acknowledge(t, s.me, s.orderId);
      await interleave(t, other, s, generatedRuns(100, 8), 3939);
    });
  });
});
