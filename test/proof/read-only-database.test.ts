// D46 (docs/design/decisions.md): the service pointed at a PostgreSQL server that turns read-only
// under it, as a leader demoted by a failover does when nothing (no HAProxy) moves the service to
// the new one. The server is a cluster of the test's own (never the shared one), made read-only
// for new sessions with `default_transaction_read_only`, its sessions cut so that the pool reconnects
// into read-only ones. Writes answer 503 with Retry-After and a `{title, status}` body, never 500;
// reads go on; the request log's batch the database refused is kept; and once the server is
// writable again the service writes again with no restart: a connection that found the server
// read-only was dropped, not handed to the next request with its read-only session.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { type OwnPostgres, startOwnPostgres } from '../support/own-services.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

describe('a database server that turns read-only under the service (D46)', () => {
  let own: OwnPostgres;
  let db: Db;
  let admin: pg.Client;
  let t: TestApp;

  beforeAll(async () => {
    own = await startOwnPostgres();
    db = openPostgres({ connectionString: own.url, max: 4 });
    await migrate(db);
    // Opened before the server turns read-only: its session stays writable to turn it back.
    admin = new pg.Client({ connectionString: own.url });
    await admin.connect();
    t = await createTestApp({ database: { db, kind: 'postgres', url: own.url, close: () => db.close() } });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await admin?.end().catch(() => {});
    await db?.close().catch(() => {});
    own?.destroy();
  });

  /** New sessions read-only (or writable again), and every other session cut: the pool reconnects. */
  async function readOnly(on: boolean): Promise<void> {
    await admin.query(
      on
        ? 'ALTER DATABASE postgres SET default_transaction_read_only = on'
        : 'ALTER DATABASE postgres RESET default_transaction_read_only',
    );
    if (on) {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE pid <> pg_backend_pid() AND datname = 'postgres' AND backend_type = 'client backend'`,
      );
    }
  }

  const newMerchant = (name: string) =>
    t.app.inject({ method: 'POST', url: '/admin/v1/merchants', headers: adminHeaders, payload: { name } });

  it('answers writes 503 with Retry-After while read-only, and writes again without a restart', async () => {
    const me = await createMerchant(t.app, 'Açougue Antes');
    await readOnly(true);

    // Every write refused with 503, never 500, whatever connection of the pool it lands on:
    // statements outside a transaction (the pool's) and inside one (order intake, onboarding).
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await newMerchant(`Açougue Somente Leitura ${i}`));
    const failures = answers.filter((a) => a.statusCode !== 201);
    expect(failures.length).toBeGreaterThan(0);
    for (const a of failures) {
      expect({ status: a.statusCode, retryAfter: a.headers['retry-after'], body: a.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { title: 'Service temporarily unavailable', status: 503 },
      });
    }
    // Reads go on from the read-only server, through the POS's own routes too (its request log
    // batch is what the database refuses to write next).
    const read = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/merchants/${me.merchantId}`,
      headers: adminHeaders,
    });
    expect(read.statusCode).toBe(200);
    const posRead = await t.app.inject({ method: 'GET', url: '/v1/merchant', headers: bearer(me.token) });
    expect(posRead.statusCode).toBe(200);
    await t.services.requestLog.flush(); // refused: the batch is kept, not dropped

    await readOnly(false);
    // Connections that found the server read-only were dropped; those that only read while it was
    // (their sessions read-only still) are dropped by their first refused write. Within a pool's
    // worth of attempts, writes are back: no restart, nothing to reconfigure.
    const after = [];
    for (let i = 0; i < 6; i++) {
      const a = await newMerchant(`Açougue Depois ${i}`);
      after.push(a.statusCode);
      if (a.statusCode === 201) break;
      expect({ status: a.statusCode, body: a.json() }).toEqual({
        status: 503,
        body: { title: 'Service temporarily unavailable', status: 503 },
      });
    }
    expect(after.at(-1)).toBe(201);
    // And it stays writable: every connection now in the pool writes.
    for (let i = 0; i < 6; i++) expect((await newMerchant(`Açougue Firme ${i}`)).statusCode).toBe(201);
    expect(after).not.toContain(500);

    // The request log's refused batch was written with the next one: the POS's read made while
    // the server was read-only is in the key's log.
    const log = await t.services.requestLog.list(me.keyId, { limit: 100 });
    expect(log.items.map((r) => r.requestId)).toContain(posRead.headers['x-request-id']);
  }, 60_000);

  it('drops a connection whose transaction found the server read-only, so the next one writes', async () => {
    // A pool of its own, used by transactions only: nothing else (an audit entry written outside
    // a transaction, which the pool drops on any error) recycles its connections.
    const pool = openPostgres({ connectionString: own.url, max: 2 });
    try {
      await pool.exec('CREATE TABLE IF NOT EXISTS ha_probe (n int)');
      const write = (n: number) => pool.transaction((tx) => tx.query('INSERT INTO ha_probe VALUES ($1)', [n]));
      await write(0);
      await readOnly(true);
      for (let n = 1; n <= 4; n++) {
        const error = await write(n).then(
          () => null,
          (e: unknown) => e as { code?: string },
        );
        // The first may meet its connection cut (57P01); the others the read-only server.
        expect(['25006', '57P01']).toContain(error?.code);
      }
      await readOnly(false);
      // Kept, those connections would stay read-only for good (their session's default): every
      // write would fail until a restart. Dropped, the next one writes at once.
      await write(5);
      const { rows } = await pool.query<{ n: number }>('SELECT n FROM ha_probe ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual([0, 5]);
    } finally {
      await pool.close();
    }
  });
});
