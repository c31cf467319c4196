// `cleaver sandbox demo`: a complete sandbox in one command, for a POS developer's first hour.
// It starts the service on the embedded database, creates (or reuses) a merchant with an
// integration key, publishes a butcher catalog through the POS client, and keeps placing
// customer orders on a timer (some followed by a customer's cancellation request), so that
// polling and webhooks have something to show.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CleaverApiError,
  createOperatorClient,
  createPosClient,
  type OperatorClient,
  type PosClient,
  type SandboxOrderRequest,
} from '@cleaver/pos-client';
import { ConfigError, loadConfig } from '../config.js';
import type { RunningServer } from '../server.js';
import { EXIT, type Io, money, parse, printJson, UsageError } from './common.js';
import { odPosCommand, publishThroughOdPos, startOdPos } from './od-pos.js';
import { odButcherMenu, odMenuProducts } from './od-pos-menu.js';
import { SAMPLE_CUTS, sampleButcherCatalog, sampleCatalogProducts } from './sample-catalog.js';

export const SANDBOX_HELP = `Usage:
  cleaver sandbox demo [--data-dir DIR] [--port PORT] [--order-every SECONDS] [--orders N]
                       [--cancel-every N] [--od-pos] [--json]
      start the service on the embedded database (sandbox), create a merchant with an
      integration key and a sample butcher catalog, place sample orders every SECONDS
      (default 20) and print the credentials a POS developer needs. Ctrl-C stops it.
      --orders N        stop placing orders after N (default: no limit)
      --cancel-every N  every Nth order is followed by a customer cancellation request
                        (default 3; 0 = never)
      --data-dir DIR    where the database and the demo credentials live
                        (default CLEAVER_DATA_DIR or ./.cleaver); a restart reuses the merchant
      --port PORT       default PORT or 8080; 0 picks a free port
      --od-pos          publish the catalog the Open Delivery way instead: a small Open
                        Delivery POS serves the menu, registers its getMerchantURL and notifies
                        with POST /v1/merchantUpdate; the platform pulls it (D29)
  cleaver sandbox od-pos [options]
      run only the Open Delivery POS, for the merchant of your POS credentials
      (cleaver sandbox od-pos --help)
  cleaver sandbox sample-catalog
      print the sample catalog (a MERCHANT merchantUpdate body) to start from

  --json       machine-readable output: one JSON line with the credentials, then one per order
  -h, --help   this help`;

interface DemoCredentials {
  merchantId: string;
  keyId: string;
  clientSecret: string;
}

function readDemoFile(path: string): DemoCredentials | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as DemoCredentials;
    return value.merchantId && value.clientSecret ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeDemoFile(path: string, credentials: DemoCredentials): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

async function ensureMerchant(op: OperatorClient, baseUrl: string, file: string): Promise<DemoCredentials> {
  const stored = readDemoFile(file);
  if (stored) {
    try {
      await createPosClient({ baseUrl, clientId: stored.merchantId, clientSecret: stored.clientSecret }).token();
      return stored;
    } catch {
      // the merchant or key is gone (database reset): create new ones
    }
  }
  const merchant = await op.createMerchant({ name: 'Açougue Boi na Brasa (sandbox)' });
  const key = await op.createIntegrationKey(merchant.id, 'sandbox demo');
  const credentials = { merchantId: merchant.id, keyId: key.keyId, clientSecret: key.clientSecret };
  writeDemoFile(file, credentials);
  return credentials;
}

/** 1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

const KG_QUANTITIES = [0.5, 0.75, 1, 1.2, 1.5, 2];

/** One element of `list` chosen with `random` (in [0, 1)): undefined only when the list is empty. */
function pickOne<T>(list: readonly T[], random: () => number): T | undefined {
  return list[Math.floor(random() * list.length)];
}
const CUSTOMERS = ['Ana Souza', 'Bruno Lima', 'Carla Mendes', 'Diego Ferreira', 'Elaine Rocha', 'Fábio Alves'];

export function sampleOrder(
  n: number,
  random = Math.random,
  products: Array<{ pdvId: string; unit: 'KG' | 'UN'; cutIds?: string[] }> = sampleCatalogProducts(),
): SandboxOrderRequest {
  const count = 1 + Math.floor(random() * 3);
  const chosen = new Map<string, { quantity: number; cutId?: string }>();
  for (let i = 0; i < count; i++) {
    const p = pickOne(products, random);
    if (!p) break; // no product to choose: an order without items, which the API refuses
    // KG_QUANTITIES is never empty: the 1 kg default does not apply.
    const quantity = p.unit === 'KG' ? (pickOne(KG_QUANTITIES, random) ?? 1) : 1 + Math.floor(random() * 4);
    // D37: most customers choose how a product that has cuts is cut.
    const cutId = p.cutIds?.length && random() < 0.75 ? pickOne(p.cutIds, random) : undefined;
    chosen.set(p.pdvId, { quantity, ...(cutId ? { cutId } : {}) });
  }
  return {
    type: n % 5 === 4 ? 'TAKEOUT' : 'DELIVERY',
    items: [...chosen].map(([pdvId, item]) => ({ pdvId, ...item })),
    customer: { name: CUSTOMERS[n % CUSTOMERS.length] },
    extraInfo: n % 2 === 0 ? 'Cortar a picanha em bifes grossos, por favor' : undefined,
  };
}

/**
 * The products the merchant's catalog offers now, with their cuts: a later catalog push (the
 * example POS's, a developer's own) may have removed or paused some of those the demo published,
 * and an order naming one is refused. The record is read before each order (one GET).
 */
async function orderableProducts(
  pos: PosClient,
): Promise<Array<{ pdvId: string; unit: 'KG' | 'UN'; cutIds?: string[] }>> {
  const out: Array<{ pdvId: string; unit: 'KG' | 'UN'; cutIds?: string[] }> = [];
  for (const p of (await pos.getMerchant()).products) {
    if (!p.pdv_external_id || p.status !== 'AVAILABLE') continue;
    const cutIds = p.cuts?.map((c) => c.id);
    out.push({ pdvId: p.pdv_external_id, unit: p.unit, ...(cutIds?.length ? { cutIds } : {}) });
  }
  return out;
}

/** The cuts of SAMPLE_CUTS on the products that have none yet (a restarted demo keeps its own). */
async function addSampleCuts(op: OperatorClient, pos: PosClient, merchantId: string): Promise<void> {
  for (const product of (await pos.getMerchant()).products) {
    const cuts = product.pdv_external_id ? SAMPLE_CUTS[product.pdv_external_id] : undefined;
    if (!cuts || product.cuts?.length) continue;
    for (const cut of cuts) await op.addCut(merchantId, product.id, cut);
  }
}

function positiveNumber(value: string | undefined, name: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0))
    throw new UsageError(`--${name} must be a positive number`);
  return n;
}

async function demo(io: Io, values: Record<string, string | boolean | undefined>): Promise<number> {
  const json = values.json === true;
  const orderEveryMs = positiveNumber(values['order-every'] as string | undefined, 'order-every', 20) * 1000;
  const maxOrders = positiveNumber(values.orders as string | undefined, 'orders', Number.POSITIVE_INFINITY, true);
  const cancelEvery = positiveNumber(values['cancel-every'] as string | undefined, 'cancel-every', 3, true);
  const port = values.port as string | undefined;
  if (port !== undefined && !/^\d+$/.test(port)) throw new UsageError('--port must be a port number');

  // The embedded database, always: the demo must not touch a PostgreSQL named in the environment.
  const env: Record<string, string | undefined> = {
    ...io.env,
    DATABASE_URL: undefined,
    CLEAVER_ENV: 'sandbox',
    CLEAVER_ROLE: 'all',
    LOG_LEVEL: io.env.LOG_LEVEL ?? 'warn',
    ...(values['data-dir'] ? { CLEAVER_DATA_DIR: values['data-dir'] as string } : {}),
    ...(port !== undefined ? { PORT: port } : {}),
  };
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`cleaver: ${error.message}\n`);
      return EXIT.CONFIG;
    }
    throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const { startServer } = await import('../server.js');
  const server: RunningServer = await startServer(config);
  const timers = new Set<NodeJS.Timeout>();
  let stopOdPos: (() => Promise<void>) | undefined;
  try {
    const url = server.url!;
    const op = createOperatorClient({ baseUrl: url, adminToken: config.adminToken });
    const credentials = await ensureMerchant(op, url, join(resolve(config.dataDir), 'sandbox-demo.json'));
    const pos = createPosClient({
      baseUrl: url,
      clientId: credentials.merchantId,
      clientSecret: credentials.clientSecret,
    });
    // --od-pos: the catalog comes from an Open Delivery POS in this process (pulled by the platform).
    const odPos = values['od-pos'] === true ? await startOdPos({ menu: odButcherMenu() }) : undefined;
    if (odPos) stopOdPos = () => odPos.close();
    const sync = odPos
      ? await publishThroughOdPos(pos, odPos, io.signal)
      : await pos.uploadCatalog(sampleButcherCatalog(), { wait: true, intervalMs: 250, timeoutMs: 60_000 });
    const products = odPos ? odMenuProducts() : sampleCatalogProducts();
    // D37: the sample products' cuts, which no catalog upload writes (the operator adds them).
    if (!odPos) await addSampleCuts(op, pos, credentials.merchantId);

    const info = {
      url,
      merchantId: credentials.merchantId,
      clientId: credentials.merchantId,
      clientSecret: credentials.clientSecret,
      keyId: credentials.keyId,
      adminToken: config.adminToken,
      dataDir: config.dataDir,
      catalogSync: sync?.status,
      ...(odPos ? { odPosUrl: odPos.url } : {}),
    };
    if (json) io.stdout.write(`${JSON.stringify(info)}\n`);
    else {
      io.stdout.write(`
Cleaver sandbox is running at ${url}
Catalog sync: ${sync?.status} (${products.length} products${odPos ? `, pulled from the Open Delivery POS at ${odPos.url}` : ''})

POS credentials (also in ${join(config.dataDir, 'sandbox-demo.json')}):
  export CLEAVER_URL=${url}
  export CLEAVER_CLIENT_ID=${credentials.merchantId}
  export CLEAVER_CLIENT_SECRET=${credentials.clientSecret}
Operator token:
  export CLEAVER_ADMIN_TOKEN=${config.adminToken}

Try, in another terminal:
  cleaver pos token
  cleaver pos events tail --ack
  cleaver pos merchant
API reference: ${url}/docs

Placing an order every ${orderEveryMs / 1000} s${cancelEvery ? `; after every ${cancelEvery === 1 ? 'order' : `${ordinal(cancelEvery)} order`} the customer asks to cancel` : ''}. Ctrl-C stops.
`);
    }

    let placed = 0;
    const placeOrder = async () => {
      const n = placed++;
      try {
        const current = await orderableProducts(pos);
        if (current.length === 0) {
          io.stderr.write('no product of the catalog can be ordered now: no order placed\n');
          return;
        }
        const order = await op.createOrder(credentials.merchantId, sampleOrder(n, Math.random, current));
        const summary = {
          placed: order.id,
          displayId: order.displayId,
          type: order.type,
          total: order.total.orderAmount.value,
          deliveryCode: order.deliveryCode,
        };
        if (json) io.stdout.write(`${JSON.stringify(summary)}\n`);
        else
          io.stdout.write(
            `order ${order.displayId} ${order.type} R$ ${money(order.total.orderAmount.value)} placed (${order.id}, delivery code ${order.deliveryCode})\n`,
          );
        if (cancelEvery > 0 && (n + 1) % cancelEvery === 0) {
          const timer = setTimeout(
            () => {
              timers.delete(timer);
              op.customerCancellation(order.id, 'Cliente desistiu da compra').then(
                () => {
                  if (json) io.stdout.write(`${JSON.stringify({ customerCancellation: order.id })}\n`);
                  else io.stdout.write(`customer asked to cancel order ${order.displayId}\n`);
                },
                (error: unknown) => {
                  // The POS may already have moved the order on (delivered, cancelled): say so and carry on.
                  if (error instanceof CleaverApiError)
                    io.stderr.write(`cancellation of ${order.displayId}: ${error.title}\n`);
                },
              );
            },
            Math.min(5_000, orderEveryMs / 2),
          );
          timers.add(timer);
        }
      } catch (error) {
        io.stderr.write(`could not place an order: ${(error as Error).message}\n`);
      }
    };

    const signal = io.signal ?? new AbortController().signal;
    await new Promise<void>((resolveDone) => {
      const tick = async () => {
        if (signal.aborted) return;
        if (placed < maxOrders) await placeOrder();
        if (!signal.aborted) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            void tick();
          }, orderEveryMs);
          timers.add(timer);
        }
      };
      signal.addEventListener('abort', () => resolveDone(), { once: true });
      void tick();
    });
    if (!json) io.stdout.write('stopping the sandbox\n');
    return EXIT.OK;
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await stopOdPos?.();
    await server.stop();
  }
}

export async function sandboxCommand(args: string[], io: Io): Promise<number> {
  // The Open Delivery POS takes the POS connection options: it parses its own.
  if (args[0] === 'od-pos') return odPosCommand(args.slice(1), io);
  const { values, positionals } = parse(args, {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    'data-dir': { type: 'string' },
    port: { type: 'string' },
    'order-every': { type: 'string' },
    orders: { type: 'string' },
    'cancel-every': { type: 'string' },
    'od-pos': { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${SANDBOX_HELP}\n`);
    return EXIT.OK;
  }
  switch (positionals[0]) {
    case 'demo':
      return demo(io, values);
    case 'sample-catalog':
      printJson(io, sampleButcherCatalog());
      return EXIT.OK;
    default:
      throw new UsageError(
        positionals[0] ? `unknown subcommand "sandbox ${positionals[0]}"` : 'sandbox needs a subcommand',
      );
  }
}
