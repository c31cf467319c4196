import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';
import { startServer } from '../../src/server.js';
import { BUILT_CLI } from '../support/built-cli.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { ADMIN_TOKEN, adminHeaders, bearer, createMerchant, createTestApp, SECRET_KEY } from '../support/test-app.js';
import { createTestDatabase, testDbKind } from '../support/test-db.js';

const kind = testDbKind();
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cleaver-storage-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('applies nothing the second time', async () => {
    const database = await createTestDatabase();
    try {
      expect(await migrate(database.db)).toEqual([]);
      const { rows } = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(rows[0].n).toBe(loadMigrations().length);
    } finally {
      await database.close();
    }
  });

  if (kind === 'postgres') {
    it('is safe when several processes migrate an empty database at once (advisory lock)', async () => {
      const base = process.env.TEST_DATABASE_URL as string;
      const name = `clv_mig_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const pools = [1, 2, 3, 4].map(() => openPostgres({ connectionString: url.toString(), max: 1 }));
      try {
        const results = await Promise.all(pools.map((db) => migrate(db)));
        const all = loadMigrations().map((m) => m.name);
        expect(results.filter((r) => r.length > 0)).toEqual([all]);
        expect(results.filter((r) => r.length === 0)).toHaveLength(3);
      } finally {
        await Promise.all(pools.map((db) => db.close()));
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
        await admin.end();
      }
    });
  }
});

interface Started {
  url: string;
  stop(): Promise<void>;
}

/** The real server as `npm start` builds it, in this process, on a data dir or database of the test's. */
async function start(env: Record<string, string>): Promise<Started> {
  // No drain (D31) in tests: nothing stands behind a load balancer here.
  const server = await startServer(
    loadConfig({ PORT: '0', LOG_LEVEL: 'silent', CLEAVER_SHUTDOWN_DRAIN_MS: '0', ...env }),
  );
  return { url: server.url as string, stop: server.stop };
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies of several shapes, checked by the assertions
async function json(res: Response): Promise<{ status: number; body: any }> {
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

// src/db/db.ts, QueryOptions.prepare: the hottest queries are named statements on PostgreSQL.
describe('named statements', () => {
  const sql = 'SELECT n, n * 2 AS twice FROM generate_series(1, $1::int) n WHERE n % $2 = 0 ORDER BY n';
  const expected = (limit: number, step: number) =>
    Array.from({ length: Math.floor(limit / step) }, (_, i) => ({ n: (i + 1) * step, twice: (i + 1) * step * 2 }));

  it('answer as the same SQL unnamed, on every connection of the pool and inside transactions', async () => {
    const database = await createTestDatabase();
    try {
      const name = 'storage-test-multiples';
      // More calls at once than the pool has connections, then enough in a row for PostgreSQL's
      // generic plan (after five executions), with different parameters each time.
      const together = await Promise.all(
        Array.from({ length: 24 }, (_, i) => database.db.query(sql, [30, (i % 5) + 1], { prepare: name })),
      );
      expect(together.map((r) => r.rows)).toEqual(together.map((_, i) => expected(30, (i % 5) + 1)));
      for (let i = 0; i < 8; i++) {
        expect((await database.db.query(sql, [12, (i % 3) + 1], { prepare: name })).rows).toEqual(
          expected(12, (i % 3) + 1),
        );
      }
      const inTx = await database.db.transaction(async (tx) => {
        const rows = (await tx.query(sql, [10, 2], { prepare: name })).rows;
        const named =
          database.kind === 'postgres'
            ? (await tx.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows.map((r) => r.name)
            : [name];
        return { rows, named };
      });
      expect(inTx.rows).toEqual(expected(10, 2));
      expect(inTx.named).toContain(name);
    } finally {
      await database.close();
    }
  });

  if (kind === 'postgres') {
    it('are plain statements with CLEAVER_DB_PREPARED_STATEMENTS=false (connection poolers)', async () => {
      const database = await createTestDatabase();
      const plain = openPostgres({ connectionString: database.url as string, preparedStatements: false });
      try {
        expect(loadConfig({ CLEAVER_DB_PREPARED_STATEMENTS: 'false' }).dbPreparedStatements).toBe(false);
        expect(loadConfig({}).dbPreparedStatements).toBe(true);
        const named = await plain.transaction(async (tx) => {
          expect((await tx.query(sql, [9, 3], { prepare: 'storage-test-plain' })).rows).toEqual(expected(9, 3));
          return (await tx.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows;
        });
        expect(named).toEqual([]);
      } finally {
        await plain.close();
        await database.close();
      }
    });
  }
});

describe('data survives a restart', () => {
  // Two starts of the real service; on the embedded database the first creates and migrates it.
  it('keeps merchants, keys, tokens and onboarding', { timeout: 120_000 }, async () => {
    const dataDir = tempDir();
    const database = kind === 'postgres' ? await createTestDatabase() : undefined;
    const env: Record<string, string> = {
      CLEAVER_DATA_DIR: dataDir,
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
    };
    try {
      let server = await start(env);
      const admin = { authorization: `Bearer ${loadConfig(env).adminToken}`, 'content-type': 'application/json' };
      const m = await json(
        await fetch(`${server.url}/admin/v1/merchants`, {
          method: 'POST',
          headers: admin,
          body: '{"name":"Boi Gordo"}',
        }),
      );
      expect(m.status).toBe(201);
      const k = await json(
        await fetch(`${server.url}/admin/v1/merchants/${m.body.id}/integrationKeys`, {
          method: 'POST',
          headers: admin,
          body: '{}',
        }),
      );
      const tok = await json(
        await fetch(`${server.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            client_id: m.body.id,
            client_secret: k.body.clientSecret,
            grant_type: 'client_credentials',
          }),
        }),
      );
      expect(tok.status).toBe(200);
      const onboarding = {
        ordersWebhookURL: 'http://127.0.0.1:9',
        getMerchantURL: { baseURL: 'http://127.0.0.1:9/pos', apiKey: 'k-1' },
      };
      const put = () =>
        fetch(`${server.url}/v1/merchantOnboarding`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${tok.body.access_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ordersWebhookURL: onboarding.ordersWebhookURL }),
        });
      expect((await json(await put())).status).toBe(200);
      await fetch(`${server.url}/v1/merchantOnboarding`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tok.body.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(onboarding),
      });
      await server.stop();

      server = await start(env);
      const again = await json(await put());
      expect(again).toEqual({ status: 200, body: onboarding });
      const detail = await json(await fetch(`${server.url}/admin/v1/merchants/${m.body.id}`, { headers: admin }));
      expect(detail.body.integrationKeys.map((x: { keyId: string }) => x.keyId)).toEqual([k.body.keyId]);
      await server.stop();
    } finally {
      await database?.close();
    }
  });
});

if (kind === 'pglite') {
  describe('embedded database lock', () => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const c of children) c.kill('SIGKILL');
    });

    function run(dataDir: string) {
      const child = spawn(process.execPath, [BUILT_CLI, 'serve'], {
        env: { ...process.env, CLEAVER_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      child.stdout?.on('data', (d) => {
        out += d;
      });
      child.stderr?.on('data', (d) => {
        out += d;
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const output = () => out;
      return { child, exited, output };
    }

    it('lets one process open a data directory and refuses a second with a clear message', async () => {
      const dataDir = tempDir();
      const first = run(dataDir);
      await expect.poll(() => first.output(), { timeout: 30_000, interval: 100 }).toContain('listening on');
      const second = run(dataDir);
      expect(await second.exited).toBe(78);
      expect(second.output()).toContain(`The embedded database in ${dataDir} is in use by process ${first.child.pid}`);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      // The lock went with the process: a new start works.
      const third = run(dataDir);
      await expect.poll(() => third.output(), { timeout: 30_000, interval: 100 }).toContain('listening on');
      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
    }, 60_000);
  });
}

if (kind === 'postgres') {
  describe('database outage', () => {
    it('answers 503 with Retry-After while PostgreSQL is unreachable, and recovers by itself', async () => {
      const database = await createTestDatabase();
      const proxy = await startTcpProxy({
        host: '127.0.0.1',
        port: Number(new URL(database.url as string).port || 5432),
      });
      const viaProxy = new URL(database.url as string);
      viaProxy.port = String(proxy.port);
      viaProxy.hostname = '127.0.0.1';
      const dataDir = tempDir();
      const server = await start({
        CLEAVER_DATA_DIR: dataDir,
        DATABASE_URL: viaProxy.toString(),
        CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN,
        CLEAVER_SECRET_KEY: SECRET_KEY,
      });
      try {
        const list = () => fetch(`${server.url}/admin/v1/merchants`, { headers: adminHeaders });
        expect((await list()).status).toBe(200);
        await proxy.cut();
        const down = await list();
        expect(down.status).toBe(503);
        expect(down.headers.get('retry-after')).toBe('5');
        expect(await down.json()).toEqual({ title: 'Service temporarily unavailable', status: 503 });
        const ready = await fetch(`${server.url}/health/ready`);
        expect(ready.status).toBe(503);
        expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
        await proxy.restore();
        const started = Date.now();
        await expect.poll(async () => (await list()).status, { timeout: 5000, interval: 100 }).toBe(200);
        expect(Date.now() - started).toBeLessThan(5000);
        // Readiness waits for the background queues' next attempt too, which back off to at
        // most 5 s while the database is away (D31): ready again within that backoff.
        await expect
          .poll(async () => (await fetch(`${server.url}/health/ready`)).status, { timeout: 8000, interval: 200 })
          .toBe(200);
      } finally {
        await server.stop();
        await proxy.close();
        await database.close();
      }
    });
  });
}

describe('revocation across instances (D15)', () => {
  it('refuses a revoked token on another instance within 1 s', async () => {
    const a = await createTestApp();
    const b = await createTestApp({ database: a.database });
    try {
      const m = await createMerchant(a.app);
      const onboard = () =>
        b.app.inject({
          method: 'PUT',
          url: '/v1/merchantOnboarding',
          headers: bearer(m.token),
          payload: { ordersWebhookURL: 'http://127.0.0.1:9' },
        });
      expect((await onboard()).statusCode).toBe(200); // cached on b
      const revokedAt = Date.now();
      const revoke = await a.app.inject({
        method: 'POST',
        url: '/oauth/revoke',
        payload: { client_id: m.merchantId, client_secret: m.clientSecret, token: m.token },
      });
      expect(revoke.statusCode).toBe(200);
      await expect.poll(async () => (await onboard()).statusCode, { timeout: 1000, interval: 20 }).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(1000);
      const body = (await onboard()).json();
      expect(body).toEqual({ title: 'Access token revoked', status: 401 });
    } finally {
      await b.close();
      await a.close();
    }
  });
});
