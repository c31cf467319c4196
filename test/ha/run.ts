// `npm run test:ha` (D46; not part of `npm test`): the topology of deploy/ha started on this
// machine, a steady load of POS and platform traffic through HAProxy (order intake, confirmations,
// weighings, polls and acknowledgments, catalog uploads, webhooks to a loopback receiver, a feed
// follower, and at the end a reader of the NATS stream), while the scenarios kill in turn: the
// PostgreSQL leader, a planned switchover, the NATS server leading the feed's stream, the Redis
// master, one API process, the worker. After each: every write answered 2xx is there; the feed is
// contiguous, each item once; the stream holds each item exactly once, each merchant's in feed
// order; every order's webhook was delivered; no 500; and the window (the longest time without a
// successful order intake around the fault) is measured.
//
//   npm run test:ha                                  every scenario
//   npm run test:ha -- --scenario pg-leader          one (repeatable: --scenario a --scenario b)
//   npm run test:ha -- --keep                        leave the topology running at the end
//
// CLEAVER_HA_DIR (default: a new temporary directory) and CLEAVER_HA_BASE_PORT (default 25500)
// place it. Exit code 0 when every check of every scenario held.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';

const SCENARIOS = ['pg-leader', 'switchover', 'nats-stream-leader', 'redis-master', 'api', 'worker'] as const;
type Scenario = (typeof SCENARIOS)[number];

const args = process.argv.slice(2);
const chosen: Scenario[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--scenario') {
    const name = args[++i] as Scenario;
    if (!SCENARIOS.includes(name)) throw new Error(`unknown scenario ${name}: one of ${SCENARIOS.join(', ')}`);
    chosen.push(name);
  }
}
const scenarios = chosen.length ? chosen : [...SCENARIOS];
const keep = args.includes('--keep');

const root = new URL('../..', import.meta.url).pathname;
const haDir = process.env.CLEAVER_HA_DIR ?? mkdtempSync(join(tmpdir(), 'cleaver-ha-'));
const basePort = process.env.CLEAVER_HA_BASE_PORT ?? '25500';
const haEnv = { ...process.env, CLEAVER_HA_DIR: haDir, CLEAVER_HA_BASE_PORT: basePort };
const ha = (...command: string[]) =>
  execFileSync(join(root, 'deploy/ha/ha.sh'), command, { env: haEnv, stdio: ['ignore', 'pipe', 'inherit'] }).toString();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => process.stdout.write(`test:ha: ${line}\n`);

// ---------------------------------------------------------------- the topology

function ports(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(join(haDir, 'ports.env'), 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}
const list = (value: string | undefined) => (value ?? '').split(',').filter(Boolean);
const pidOf = (piece: string) => Number(readFileSync(join(haDir, 'run', `${piece}.pid`), 'utf8').trim());
const kill9 = (pid: number) => process.kill(pid, 'SIGKILL');

const SERVICE_LOGS = ['api1', 'api2', 'worker'];
const logSize = (piece: string) => {
  try {
    return statSync(join(haDir, 'log', `${piece}.log`)).size;
  } catch {
    return 0;
  }
};

/**
 * What the service's processes logged since `from` (byte offsets per log): warning lines, error
 * lines (pino level 50) and stack-trace lines (D46: one warning line per failover, no stacks).
 */
function serviceLogLines(from: Record<string, number>): { warnings: number; errors: number; stackLines: number } {
  let warnings = 0;
  let errors = 0;
  let stackLines = 0;
  for (const piece of SERVICE_LOGS) {
    const text = readFileSync(join(haDir, 'log', `${piece}.log`))
      .subarray(from[piece] ?? 0)
      .toString();
    for (const line of text.split('\n')) {
      if (line.startsWith('cleaver: warning:')) warnings++;
      if (line.includes('"level":50')) errors++;
      if (/^\s+at /.test(line) || line.includes('\\n    at ')) stackLines++;
    }
  }
  return { warnings, errors, stackLines };
}

async function getJson(url: string): Promise<{ status: number; json: unknown }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  } catch {
    return { status: 0, json: undefined };
  }
}

async function pgLeader(p: Record<string, string>): Promise<number | null> {
  const rest = list(p.PATRONI_PORTS);
  for (let i = 0; i < rest.length; i++) {
    if ((await getJson(`http://127.0.0.1:${rest[i]}/primary`)).status === 200) return i + 1;
  }
  return null;
}

async function pgSyncStandby(p: Record<string, string>): Promise<string | null> {
  for (const port of list(p.PATRONI_PORTS)) {
    const cluster = (await getJson(`http://127.0.0.1:${port}/cluster`)).json as
      | { members?: Array<{ name: string; role: string; state: string }> }
      | undefined;
    const sync = cluster?.members?.find((m) => m.role === 'sync_standby' && m.state === 'running');
    if (sync) return sync.name;
  }
  return null;
}

interface Member {
  name: string;
  role: string;
  state: string;
  timeline?: number;
  lag?: number | string;
}

async function pgMembers(p: Record<string, string>): Promise<Member[]> {
  for (const rest of list(p.PATRONI_PORTS)) {
    const cluster = (await getJson(`http://127.0.0.1:${rest}/cluster`)).json as { members?: Member[] } | undefined;
    if (cluster?.members) return cluster.members;
  }
  return [];
}

/**
 * Whole again: three members running on the leader's timeline, replicas caught up, a synchronous
 * standby. A replica still on the old timeline has not been rewound yet: a switchover then would
 * cut its pg_rewind short.
 */
async function pgWhole(p: Record<string, string>): Promise<boolean> {
  const members = await pgMembers(p);
  const leader = members.find((m) => m.role === 'leader' || m.role === 'master');
  if (!leader || members.length !== 3) return false;
  return (
    members.every((m) => m.state === 'running' || m.state === 'streaming') &&
    members.every((m) => m.timeline === leader.timeline && (m === leader || typeof m.lag === 'number')) &&
    members.some((m) => m.role === 'sync_standby')
  );
}

/**
 * Waits for the cluster to be whole; a replica that cannot follow the new leader within a minute
 * (its pg_rewind failed) is rebuilt from a fresh base backup, as the runbook says.
 */
async function pgRestored(p: Record<string, string>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await pgWhole(p))) {
    if (Date.now() > deadline) {
      const members = await pgMembers(p);
      const leader = members.find((m) => m.role === 'leader' || m.role === 'master');
      for (const m of members.filter(
        (m) => m !== leader && (m.timeline !== leader?.timeline || typeof m.lag !== 'number'),
      )) {
        say(`reinit ${m.name} (it did not follow the new leader)`);
        execFileSync('patronictl', ['-c', join(haDir, 'pg1', 'patroni.yml'), 'reinit', 'cleaver', m.name, '--force'], {
          stdio: 'ignore',
        });
      }
      await until('PostgreSQL whole after reinit', () => pgWhole(p), 120_000);
      return;
    }
    await sleep(250);
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

// ---------------------------------------------------------------- the load

interface Outcome {
  status: number;
  json: unknown;
}

const stats = {
  requests: 0,
  retried: 0,
  fiveHundreds: [] as string[],
  unexpected: [] as string[],
};

/**
 * One call through HAProxy's API port. A 502/503/504 or a cut connection is retried (after
 * Retry-After, at most 1 s) for up to 60 s, as a client of the service should; a 500 is recorded
 * and never retried.
 */
async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const started = Date.now();
  for (;;) {
    stats.requests++;
    let outcome: Outcome;
    let retryAfter = 250;
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      outcome = { status: res.status, json: text && text[0] !== '<' ? JSON.parse(text) : undefined };
      if (res.headers.get('retry-after')) retryAfter = Math.min(1_000, Number(res.headers.get('retry-after')) * 1000);
    } catch {
      outcome = { status: 0, json: undefined };
    }
    if (outcome.status === 500) stats.fiveHundreds.push(`${method} ${path}: ${JSON.stringify(outcome.json)}`);
    if (![0, 502, 503, 504].includes(outcome.status) || Date.now() - started > 60_000) return outcome;
    stats.retried++;
    await sleep(retryAfter);
  }
}

interface Merchant {
  merchantId: string;
  pos: Record<string, string>;
  productId: string;
}

interface Written {
  /** Orders answered 201, with the time of the answer. */
  orders: Array<{ id: string; merchantId: string; at: number }>;
  /** Orders whose confirmation was answered 2xx. */
  confirmed: Set<string>;
  /** Orders whose weighing was answered 2xx, and the weight. */
  weighed: Map<string, number>;
  uploads: number;
  acks: number;
}

function catalog(round: number) {
  return {
    entityType: 'MERCHANT',
    merchantStatus: 'AVAILABLE',
    onlyAddProducts: false,
    updatedObjects: [
      {
        id: 'STORE',
        categories: [{ id: 'C0', name: 'Bovinos', index: 0, status: 'AVAILABLE', itemOfferId: ['O0', 'O1'] }],
        itemOffers: [0, 1].map((i) => ({
          id: `O${i}`,
          itemId: `P${i}`,
          price: { value: 50 + i + (round % 10) },
          status: 'AVAILABLE',
        })),
        items: [0, 1].map((i) => ({
          id: `P${i}`,
          name: `Corte ${i} v${round}`,
          unit: 'KG',
          externalCode: `${900 + i}`,
        })),
      },
    ],
  };
}

async function setUpMerchant(base: string, admin: Record<string, string>, i: number, receiver: number) {
  const m = await call(base, 'POST', '/admin/v1/merchants', admin, { name: `Açougue HA ${i}` });
  const merchantId = (m.json as { id: string }).id;
  const k = await call(base, 'POST', `/admin/v1/merchants/${merchantId}/integrationKeys`, admin, {});
  const t = await call(
    base,
    'POST',
    '/oauth/token',
    {},
    {
      client_id: merchantId,
      client_secret: (k.json as { clientSecret: string }).clientSecret,
      grant_type: 'client_credentials',
    },
  );
  const pos = { authorization: `Bearer ${(t.json as { access_token: string }).access_token}` };
  const onboarded = await call(base, 'PUT', '/v1/merchantOnboarding', pos, {
    ordersWebhookURL: `http://127.0.0.1:${receiver}`,
  });
  if (onboarded.status !== 200) throw new Error(`onboarding: ${onboarded.status} ${JSON.stringify(onboarded.json)}`);
  const p = await call(base, 'POST', `/admin/v1/merchants/${merchantId}/products`, admin, {
    name: 'Picanha',
    price: 89.9,
    unit: 'KG',
  });
  return { merchantId, pos, productId: (p.json as { id: string }).id };
}

/** One merchant's POS and platform traffic until `running()` is false. */
async function merchantLoad(
  base: string,
  admin: Record<string, string>,
  me: Merchant,
  w: Written,
  running: () => boolean,
) {
  let round = 0;
  while (running()) {
    round++;
    const o = await call(base, 'POST', `/admin/v1/merchants/${me.merchantId}/orders`, admin, {
      type: 'DELIVERY',
      items: [{ productId: me.productId, quantity: 1.5 }],
    });
    if (o.status === 201)
      w.orders.push({ id: (o.json as { id: string }).id, merchantId: me.merchantId, at: Date.now() });
    else stats.unexpected.push(`order intake: ${o.status} ${JSON.stringify(o.json)}`);
    const polled = await call(base, 'GET', '/v1/events:polling', me.pos);
    const events = (Array.isArray(polled.json) ? polled.json : []) as Array<{
      eventId: string;
      orderId: string;
      eventType: string;
    }>;
    for (const e of events.filter((e) => e.eventType === 'CREATED')) {
      const c = await call(base, 'POST', `/v1/orders/${e.orderId}/confirm`, me.pos, {
        createdAt: new Date().toISOString(),
        orderExternalCode: `PDV-${round}`,
      });
      if (c.status >= 200 && c.status < 300) w.confirmed.add(e.orderId);
      const weight = 1.5 + (round % 5) / 100;
      const g = await call(base, 'POST', `/v1/orders/${e.orderId}/weighing`, me.pos, {
        items: [{ index: 0, quantity: weight }],
      });
      if (g.status >= 200 && g.status < 300) w.weighed.set(e.orderId, weight);
    }
    if (events.length) {
      const a = await call(
        base,
        'POST',
        '/v1/events/acknowledgment',
        me.pos,
        events.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
      );
      if (a.status === 202) w.acks += events.length;
    }
    if (round % 15 === 0) {
      const u = await call(base, 'PUT', '/v1/merchantUpdate', me.pos, catalog(round));
      if (u.status >= 200 && u.status < 300) w.uploads++;
    }
  }
}

interface FeedItem {
  id: string;
  cursor: string;
  kind: string;
  type: string;
  merchantId: string;
  orderId?: string;
}

/** Follows GET /admin/v1/feed from its start (long polls), as a platform would. */
function followFeed(base: string, admin: Record<string, string>, running: () => boolean) {
  const items: FeedItem[] = [];
  let after: string | null = null;
  const done = (async () => {
    while (running()) {
      const q = `/admin/v1/feed?limit=1000&wait=2${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const page = await call(base, 'GET', q, admin);
      if (page.status !== 200) continue;
      const body = page.json as { items: FeedItem[]; next: string | null };
      items.push(...body.items);
      if (body.next) after = body.next;
    }
  })();
  return { items, done };
}

// ---------------------------------------------------------------- the checks

async function readWholeFeed(base: string, admin: Record<string, string>): Promise<FeedItem[]> {
  const all: FeedItem[] = [];
  let after: string | null = null;
  for (;;) {
    const q = `/admin/v1/feed?limit=1000${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const page = await call(base, 'GET', q, admin);
    const body = page.json as { items: FeedItem[]; next: string | null };
    all.push(...body.items);
    if (body.items.length === 0 || !body.next || body.next === after) return all;
    after = body.next;
  }
}

async function readStream(servers: string[]): Promise<Array<{ msgId: string; item: FeedItem; at: number }>> {
  const nc = await connect({ servers });
  try {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info('CLEAVER');
    const out: Array<{ msgId: string; item: FeedItem; at: number }> = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage('CLEAVER', { seq }).catch(() => null);
      if (m) out.push({ msgId: m.header?.get('Nats-Msg-Id') ?? '', item: m.json<FeedItem>(), at: m.time.getTime() });
    }
    return out;
  } finally {
    await nc.close();
  }
}

// ---------------------------------------------------------------- the faults

async function fault(
  scenario: Scenario,
  p: Record<string, string>,
): Promise<{ what: string; recover: () => Promise<void> }> {
  switch (scenario) {
    case 'pg-leader': {
      const leader = await pgLeader(p);
      if (!leader) throw new Error('no PostgreSQL leader');
      // The postmaster of the leader, killed: Patroni promotes the synchronous standby rather
      // than restart it in place (master_start_timeout: 0), then rejoins it as a replica.
      const pid = Number(readFileSync(join(haDir, `pg${leader}`, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      kill9(pid);
      return {
        what: `killed PostgreSQL leader pg${leader} (postmaster ${pid})`,
        recover: () => pgRestored(p),
      };
    }
    case 'switchover': {
      const leader = await pgLeader(p);
      const candidate = await pgSyncStandby(p);
      if (!leader || !candidate) throw new Error('no leader or no synchronous standby to switch over to');
      execFileSync(
        'patronictl',
        [
          '-c',
          join(haDir, 'pg1', 'patroni.yml'),
          'switchover',
          '--leader',
          `pg${leader}`,
          '--candidate',
          candidate,
          '--force',
        ],
        {
          stdio: 'ignore',
        },
      );
      return {
        what: `switched over pg${leader} → ${candidate}`,
        recover: () => pgRestored(p),
      };
    }
    case 'nats-stream-leader': {
      let leader = '';
      for (const port of list(p.NATS_MONITOR_PORTS)) {
        const jsz = (await getJson(`http://127.0.0.1:${port}/jsz?streams=true`)).json as {
          account_details?: Array<{ stream_detail?: Array<{ name: string; cluster?: { leader?: string } }> }>;
        };
        leader =
          jsz?.account_details?.flatMap((a) => a.stream_detail ?? []).find((s) => s.name === 'CLEAVER')?.cluster
            ?.leader ?? '';
        if (leader) break;
      }
      if (!/^n[123]$/.test(leader)) throw new Error(`no leader of the stream CLEAVER (${leader})`);
      const piece = `nats${leader.slice(1)}`;
      kill9(pidOf(piece));
      return {
        what: `killed the NATS server leading the stream (${leader})`,
        recover: async () => {
          await sleep(5_000);
          ha('restart', piece);
        },
      };
    }
    case 'redis-master': {
      const sentinel = list(p.SENTINEL_PORTS)[0];
      const addr = execFileSync('redis-cli', ['-p', String(sentinel), 'sentinel', 'get-master-addr-by-name', 'cleaver'])
        .toString()
        .split('\n');
      const piece = addr[1]?.trim() === p.REDIS_MASTER ? 'redis-master' : 'redis-replica';
      kill9(pidOf(piece));
      return {
        what: `killed the Redis master (${piece}, port ${addr[1]?.trim()})`,
        recover: async () => {
          await sleep(8_000);
          ha('restart', piece);
        },
      };
    }
    case 'api': {
      kill9(pidOf('api1'));
      return {
        what: 'killed API process api1',
        recover: async () => {
          await sleep(3_000);
          ha('restart', 'api1');
        },
      };
    }
    case 'worker': {
      kill9(pidOf('worker'));
      return {
        what: 'killed the worker',
        recover: async () => {
          await sleep(3_000);
          ha('restart', 'worker');
        },
      };
    }
  }
}

// ---------------------------------------------------------------- the run

interface Result {
  scenario: Scenario;
  what: string;
  windowMs: number;
  /** The longest time without a message reaching the stream, from 2 s before the fault. */
  streamWindowMs: number;
  logs: { warnings: number; errors: number; stackLines: number };
  orders: number;
  confirmed: number;
  weighed: number;
  acks: number;
  uploads: number;
  webhooks: number;
  feedItems: number;
  streamItems: number;
  problems: string[];
}

async function runScenario(
  scenario: Scenario,
  p: Record<string, string>,
  base: string,
  admin: Record<string, string>,
  merchants: Merchant[],
  webhooks: Map<string, Set<string>>,
): Promise<Result> {
  const w: Written = { orders: [], confirmed: new Set(), weighed: new Map(), uploads: 0, acks: 0 };
  const fiveHundredsBefore = stats.fiveHundreds.length;
  let running = true;
  const loads = merchants.map((me) => merchantLoad(base, admin, me, w, () => running));
  const follower = followFeed(base, admin, () => running);
  await sleep(5_000); // steady state first
  const logsFrom = Object.fromEntries(SERVICE_LOGS.map((piece) => [piece, logSize(piece)]));
  const faultAt = Date.now();
  const { what, recover } = await fault(scenario, p);
  say(`${scenario}: ${what}`);
  await recover();
  await sleep(5_000); // steady state after
  running = false;
  const loadEndedAt = Date.now();
  await Promise.all(loads);
  await follower.done;

  const problems: string[] = [];
  // The window: the longest time without an order answered 201, from just before the fault.
  const times = w.orders
    .map((o) => o.at)
    .filter((t) => t >= faultAt - 2_000)
    .sort((a, b) => a - b);
  let windowMs = 0;
  for (let i = 1; i < times.length; i++) windowMs = Math.max(windowMs, (times[i] as number) - (times[i - 1] as number));
  if (times.length === 0) problems.push('no order intake answered 201 after the fault');

  // Every write answered 2xx is there.
  for (const o of w.orders) {
    const r = await call(base, 'GET', `/admin/v1/orders/${o.id}`, admin);
    if (r.status !== 200) {
      problems.push(`order ${o.id} answered 201 is missing (${r.status})`);
      continue;
    }
    const order = r.json as { status: string; items: Array<{ quantity: number }> };
    if (w.confirmed.has(o.id) && order.status === 'CREATED')
      problems.push(`order ${o.id}: confirmation answered 2xx is lost`);
    const weight = w.weighed.get(o.id);
    if (weight !== undefined && order.items[0]?.quantity !== weight) {
      problems.push(`order ${o.id}: weighing of ${weight} answered 2xx is lost (${order.items[0]?.quantity})`);
    }
  }

  // The feed: the follower's items contiguous and each once, as a fresh reading from the start.
  const whole = await readWholeFeed(base, admin);
  const ids = whole.map((i) => i.id);
  if (new Set(ids).size !== ids.length) problems.push('the feed holds an item twice');
  const followed = follower.items.map((i) => i.id);
  const prefix = ids.slice(0, followed.length);
  if (followed.join() !== prefix.join())
    problems.push('the feed follower saw items out of order, twice, or with a gap');
  const created = new Set(whole.filter((i) => i.kind === 'order' && i.type === 'CREATED').map((i) => i.orderId));
  for (const o of w.orders) if (!created.has(o.id)) problems.push(`order ${o.id}: no CREATED item in the feed`);

  // The stream: once the relay has caught up (every item of the feed read above is in it, or a
  // minute passed), each feed item exactly once, each merchant's in feed order.
  const servers = list(p.NATS_PORTS).map((port) => `nats://127.0.0.1:${port}`);
  let stream = await readStream(servers);
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const published = new Set(stream.map((s) => s.msgId));
    if (ids.every((id) => published.has(id))) break;
    await sleep(1_000);
    stream = await readStream(servers);
  }
  const inStream = stream.map((s) => s.msgId);
  if (new Set(inStream).size !== inStream.length)
    problems.push(`the stream holds ${inStream.length - new Set(inStream).size} items twice`);
  const streamSet = new Set(inStream);
  const missing = ids.filter((id) => !streamSet.has(id));
  if (missing.length) problems.push(`${missing.length} feed items are not in the stream`);
  const byMerchant = (items: Array<{ id: string; merchantId: string }>) => {
    const m = new Map<string, string[]>();
    for (const i of items) m.set(i.merchantId, [...(m.get(i.merchantId) ?? []), i.id]);
    return m;
  };
  const feedOrder = byMerchant(whole);
  const streamOrder = byMerchant(stream.map((s) => ({ id: s.msgId, merchantId: s.item.merchantId })));
  for (const [merchantId, order] of feedOrder) {
    if ((streamOrder.get(merchantId) ?? []).join() !== order.join())
      problems.push(`merchant ${merchantId}: stream order differs from the feed's`);
  }

  // Every order's CREATED event delivered by webhook (retries of a failed attempt included).
  await until(
    'webhooks delivered',
    async () => w.orders.every((o) => webhooks.get(o.id)?.has('CREATED')),
    90_000,
  ).catch(() => {
    const late = w.orders.filter((o) => !webhooks.get(o.id)?.has('CREATED'));
    problems.push(`${late.length} orders' CREATED webhooks not delivered`);
  });

  const published = stream.map((s) => s.at).filter((t) => t >= faultAt - 2_000 && t <= loadEndedAt);
  let streamWindowMs = 0;
  for (let i = 1; i < published.length; i++) {
    streamWindowMs = Math.max(streamWindowMs, (published[i] as number) - (published[i - 1] as number));
  }

  const logs = serviceLogLines(logsFrom);
  if (logs.stackLines > 0) problems.push(`${logs.stackLines} stack-trace lines in the service's logs`);

  const fiveHundreds = stats.fiveHundreds.slice(fiveHundredsBefore);
  if (fiveHundreds.length)
    problems.push(`${fiveHundreds.length} answers of 500: ${fiveHundreds.slice(0, 3).join('; ')}`);
  return {
    scenario,
    what,
    windowMs,
    streamWindowMs,
    logs,
    orders: w.orders.length,
    confirmed: w.confirmed.size,
    weighed: w.weighed.size,
    acks: w.acks,
    uploads: w.uploads,
    webhooks: [...webhooks.values()].reduce((n, s) => n + s.size, 0),
    feedItems: whole.length,
    streamItems: stream.length,
    problems,
  };
}

async function main() {
  // Webhook receiver on loopback: event types received per order (deduplicated by webhook-id).
  const webhooks = new Map<string, Set<string>>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      try {
        const event = JSON.parse(body) as { orderId?: string; eventType?: string };
        if (event.orderId && event.eventType) {
          const set = webhooks.get(event.orderId) ?? new Set<string>();
          set.add(event.eventType);
          webhooks.set(event.orderId, set);
        }
      } catch {
        // not an event
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverPort = (receiver.address() as { port: number }).port;

  // The service under test: generous rate limits (the load is one client per merchant), quick
  // webhook retries and leases, so that what a fault delays shows within the run.
  execFileSync('mkdir', ['-p', join(haDir, 'conf')]);
  writeFileSync(
    join(haDir, 'conf', 'cleaver.local.env'),
    [
      'CLEAVER_RATE_LIMIT_READ=1000000',
      'CLEAVER_RATE_LIMIT_WRITE=1000000',
      'CLEAVER_RATE_LIMIT_AUTH=1000000',
      'CLEAVER_WEBHOOK_RETRY_SCHEDULE=0,1,2,3,5,10,20,30',
      'CLEAVER_WEBHOOK_LEASE_SEC=5',
      'CLEAVER_CATALOG_LEASE_SEC=4',
      '',
    ].join('\n'),
  );
  const startedAt = Date.now();
  say(`starting the topology in ${haDir} (ports from ${basePort})…`);
  ha('start');
  say(`started in ${Math.round((Date.now() - startedAt) / 1000)} s`);
  const p = ports();
  const base = `http://127.0.0.1:${p.HAPROXY_API}`;
  const admin = { authorization: `Bearer ${readFileSync(join(haDir, 'secrets', 'admin-token'), 'utf8').trim()}` };
  const merchants: Merchant[] = [];
  for (let i = 0; i < 4; i++) merchants.push(await setUpMerchant(base, admin, i, receiverPort));

  const results: Result[] = [];
  try {
    for (const scenario of scenarios) {
      const scenarioStart = Date.now();
      const r = await runScenario(scenario, p, base, admin, merchants, webhooks);
      results.push(r);
      say(
        `${scenario}: window ${(r.windowMs / 1000).toFixed(1)} s (stream ${(r.streamWindowMs / 1000).toFixed(1)} s); ${r.orders} orders, ${r.confirmed} confirmed, ` +
          `${r.weighed} weighed, ${r.acks} events acknowledged, ${r.uploads} catalog uploads; feed ${r.feedItems} items, ` +
          `stream ${r.streamItems}; service logs: ${r.logs.warnings} warning lines, ${r.logs.errors} errors, ` +
          `${r.logs.stackLines} stack-trace lines; ${r.problems.length ? `PROBLEMS: ${r.problems.join(' | ')}` : 'all checks held'} ` +
          `(${Math.round((Date.now() - scenarioStart) / 1000)} s)`,
      );
    }
  } finally {
    receiver.close();
    if (!keep) ha('destroy');
  }
  say(
    `${stats.requests} requests, ${stats.retried} retried (502/503/504 or a cut connection), ${stats.fiveHundreds.length} answers of 500`,
  );
  if (stats.unexpected.length) say(`unexpected answers: ${stats.unexpected.slice(0, 5).join('; ')}`);
  say(`total ${Math.round((Date.now() - startedAt) / 1000)} s`);
  const failed = results.filter((r) => r.problems.length > 0);
  process.exitCode = failed.length ? 1 : 0;
}

await main();
