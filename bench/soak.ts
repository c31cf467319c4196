// Soak (architecture.md#soak): SOAK_SECONDS (default 300) of mixed traffic against a `cleaver serve` child
// process: order intake, polling and acknowledgment, every POS order action, GET order, catalog
// uploads, and webhooks to a local receiver. The child's RSS is sampled every 5 s; growth is
// measured from the end of a 30 s warm-up (target < 10 %) and every unexpected answer counts as
// an error (target 0). Not part of `npm test`.
//
//   node --import tsx bench/soak.ts                      (embedded database in a temp dir)
//   SOAK_DATABASE_URL=postgres://... node --import tsx bench/soak.ts   (a fresh database on it)
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fmt, machine } from './support/measure.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const WARMUP_SECONDS = Math.min(30, Math.floor(SECONDS / 4));
const SAMPLE_MS = 5_000;
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 4);
const ADMIN = 'soak-admin-token-0123456789abcdefghijklmnop';
const SECRET = 'soak-secret-key-0123456789abcdefghijklmnopqrs';
const admin = { authorization: `Bearer ${ADMIN}` };

async function freshDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = process.env.SOAK_DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => {} };
  const name = `clv_soak_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: base });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

async function startServer(
  databaseUrl: string | undefined,
  dataDir: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--role', 'all'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl ?? '',
      CLEAVER_DATA_DIR: dataDir,
      CLEAVER_ADMIN_TOKEN: ADMIN,
      CLEAVER_SECRET_KEY: SECRET,
      CLEAVER_RATE_LIMIT_READ: '10000000',
      CLEAVER_RATE_LIMIT_WRITE: '10000000',
      CLEAVER_RATE_LIMIT_AUTH: '10000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const started = Date.now();
  while (!/listening on (http:\/\/\S+)/.test(out)) {
    if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url: /listening on (http:\/\/\S+)/.exec(out)?.[1] as string };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function catalog(items: number, round: number) {
  return {
    entityType: 'MERCHANT',
    merchantStatus: 'AVAILABLE',
    onlyAddProducts: false,
    updatedObjects: [
      {
        id: 'STORE',
        categories: [
          {
            id: 'C0',
            name: 'Bovinos',
            index: 0,
            status: 'AVAILABLE',
            itemOfferId: Array.from({ length: items }, (_, i) => `O${i}`),
          },
        ],
        itemOffers: Array.from({ length: items }, (_, i) => ({
          id: `O${i}`,
          itemId: `P${i}`,
          price: { value: Number((10 + ((i + round) % 1000) / 100).toFixed(2)) },
          status: 'AVAILABLE',
        })),
        items: Array.from({ length: items }, (_, i) => ({
          id: `P${i}`,
          name: `Produto ${i} v${round}`,
          unit: i % 2 ? 'KG' : 'UN',
          externalCode: String(10000 + i),
        })),
      },
    ],
  };
}

async function main() {
  const database = await freshDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'cleaver-soak-'));
  let webhooks = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhooks++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverPort = (receiver.address() as { port: number }).port;
  const server = await startServer(database.url, dataDir);
  const pid = server.child.pid as number;

  let requests = 0;
  const errors: string[] = [];
  const call = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
    ok = [200, 201, 202, 204],
  ) => {
    requests++;
    try {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!ok.includes(res.status)) errors.push(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    } catch (error) {
      errors.push(`${method} ${path}: ${(error as Error).message}`);
      return { status: 0, json: undefined };
    }
  };

  // One merchant per client: its own key, product, webhook receiver and event stream.
  async function setUpMerchant(i: number) {
    const m = await call('POST', '/admin/v1/merchants', admin, { name: `Açougue Soak ${i}` });
    const merchantId = m.json.id as string;
    const k = await call('POST', `/admin/v1/merchants/${merchantId}/integrationKeys`, admin, {});
    const t = await call(
      'POST',
      '/oauth/token',
      {},
      {
        client_id: merchantId,
        client_secret: k.json.clientSecret,
        grant_type: 'client_credentials',
      },
    );
    const pos = { authorization: `Bearer ${t.json.access_token}` };
    await call('PUT', '/v1/merchantOnboarding', pos, { ordersWebhookURL: `http://127.0.0.1:${receiverPort}` });
    const p = await call('POST', `/admin/v1/merchants/${merchantId}/products`, admin, {
      name: 'Picanha',
      price: 89.9,
      unit: 'KG',
    });
    return { merchantId, pos, productId: p.json.id as string };
  }

  const deadline = Date.now() + SECONDS * 1000;
  let orders = 0;
  let uploads = 0;
  async function client(i: number) {
    const { merchantId, pos, productId } = await setUpMerchant(i);
    let round = 0;
    while (Date.now() < deadline) {
      round++;
      const o = await call('POST', `/admin/v1/merchants/${merchantId}/orders`, admin, {
        type: 'DELIVERY',
        items: [{ productId, quantity: 1.5 }],
      });
      if (o.status !== 201) continue;
      orders++;
      const id = o.json.id as string;
      await call('GET', `/v1/orders/${id}`, pos);
      await call('POST', `/v1/orders/${id}/confirm`, pos, {
        createdAt: new Date().toISOString(),
        orderExternalCode: `PDV-${round}`,
      });
      await call('POST', `/v1/orders/${id}/readyForPickup`, pos);
      await call('POST', `/v1/orders/${id}/dispatch`, pos, {});
      await call('POST', `/v1/orders/${id}/delivered`, pos);
      const polled = await call('GET', '/v1/events:polling', pos);
      const events = (polled.json ?? []) as Array<{ eventId: string; orderId: string; eventType: string }>;
      if (events.length) {
        await call(
          'POST',
          '/v1/events/acknowledgment',
          pos,
          events.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
        );
      }
      if (round % 10 === 0) {
        uploads++;
        await call('PUT', '/v1/merchantUpdate', pos, catalog(300, round));
        await call('GET', `/v1/merchantStatus?merchantId=${merchantId}`, pos);
      }
    }
  }

  const samples: Array<{ t: number; rss: number }> = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    samples.push({ t: Math.round((Date.now() - started) / 1000), rss: rssMiB(pid) });
  }, SAMPLE_MS);
  samples.push({ t: 0, rss: rssMiB(pid) });
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  clearInterval(sampler);
  samples.push({ t: Math.round((Date.now() - started) / 1000), rss: rssMiB(pid) });
  await new Promise((r) => setTimeout(r, 2_000)); // last webhooks

  const afterWarmup = samples.filter((s) => s.t >= WARMUP_SECONDS);
  const base = afterWarmup[0]?.rss ?? 0;
  const last = afterWarmup.at(-1)?.rss ?? 0;
  const peak = Math.max(...afterWarmup.map((s) => s.rss));
  const growth = base ? ((last - base) / base) * 100 : 0;
  const elapsed = (Date.now() - started) / 1000;
  const alive = server.child.exitCode === null;

  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  receiver.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });

  const lines = [
    `machine: ${machine()}; database: ${database.url ? 'PostgreSQL' : 'embedded PGlite'}; ${CLIENTS} clients`,
    `duration: ${fmt(elapsed)} s (warm-up ${WARMUP_SECONDS} s); requests: ${fmt(requests)} (${fmt(requests / elapsed)}/s); orders: ${fmt(orders)}; catalog uploads: ${uploads}; webhooks received: ${fmt(webhooks)}`,
    `RSS after warm-up: ${fmt(base, 1)} MiB; at the end: ${fmt(last, 1)} MiB; peak: ${fmt(peak, 1)} MiB; growth: ${fmt(growth, 1)} % (target < 10 %)`,
    `errors: ${errors.length} (target 0); server alive at the end: ${alive}`,
    `RSS samples (s:MiB): ${samples.map((s) => `${s.t}:${fmt(s.rss, 0)}`).join(' ')}`,
  ];
  for (const e of [...new Set(errors)].slice(0, 10)) lines.push(`  error: ${e}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(errors.length === 0 && growth < 10 && alive ? 0 : 1);
}

await main();
