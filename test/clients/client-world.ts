// What the tests of the Pascal and C# clients (clients/) share: a live sandbox service on a real
// socket with its workers, a webhook receiver the merchant registered, a butcher's KG product with
// a cut and a scale code, the order a customer places, and the compiled programs run as a POS
// runs them. Each language's test compiles its client, runs its example's whole order flow, and
// hands the webhooks the service really delivered to its verifier.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import {
  createOperatorClient,
  createPosClient,
  type MerchantUpdateRequest,
  type OperatorClient,
} from '../../packages/pos-client/src/index.js';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { ROOT } from '../cli/run-cli.js';
import { ADMIN_TOKEN, createMerchant, type MerchantCredentials } from '../support/test-app.js';
import { type ReceivedRequest, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

export const run = promisify(execFile);

/**
 * Whether a compiler is installed. CI installs both (.ci/run), so where CI or
 * CLEAVER_REQUIRE_CLIENT_COMPILERS is set its absence fails the test loudly; on a developer's
 * machine without it the test is skipped with a message.
 */
export async function compilerPresent(command: string, versionArgs: string[]): Promise<boolean> {
  try {
    await run(command, versionArgs);
    return true;
  } catch {
    if (process.env.CI || process.env.CLEAVER_REQUIRE_CLIENT_COMPILERS) {
      throw new Error(`${command} is not installed: CI installs it (.ci/run), the client tests need it`);
    }
    process.stdout.write(`${command} is not installed: skipping the client test (CI installs it)\n`);
    return false;
  }
}

export function buildDir(language: string): string {
  return mkdtempSync(join(tmpdir(), `cleaver-${language}-client-`));
}

/** D41's vector: code 010085, 2.504 kg; at R$ 12.19/kg the line is R$ 30.52. */
export const SCALE_LABEL = '2010085025049';
export const SCALE_CODE = '010085';

export interface ClientWorld {
  server: RunningApp;
  receiver: WebhookReceiver;
  op: OperatorClient;
  close(): Promise<void>;
}

export async function startClientWorld(): Promise<ClientWorld> {
  const server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
  const workers = await startAppWorkers(server);
  const receiver = await startWebhookReceiver();
  const op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
  return {
    server,
    receiver,
    op,
    async close() {
      await workers.stop();
      await receiver.close();
      await server.close();
    },
  };
}

export interface ButcherShop {
  merchant: MerchantCredentials;
  productId: string;
}

/**
 * A merchant whose POS registered the receiver as its webhook URL and published picanha sold by
 * KG at R$ 12.19 with scale code 010085 (and D41's label layout), with a cut.
 */
export async function openButcherShop(world: ClientWorld, name: string): Promise<ButcherShop> {
  const merchant = await createMerchant(world.server.app, name);
  const pos = createPosClient({
    baseUrl: world.server.url,
    clientId: merchant.merchantId,
    clientSecret: merchant.clientSecret,
  });
  await pos.onboard({ ordersWebhookURL: world.receiver.url });
  // D41's layout: prefix 2, a 6-digit product code, a 5-digit weight in grams.
  const layouts = await world.server.app.inject({
    method: 'PUT',
    url: '/v1/merchant/scaleLabelLayouts',
    headers: { authorization: `Bearer ${merchant.token}` },
    payload: [{ prefix: '2', codeDigits: 6, value: 'WEIGHT', valueDigits: 5, decimals: 3 }],
  });
  if (layouts.statusCode !== 200) throw new Error(`scale label layouts refused: ${layouts.body}`);
  // The catalog as a POS publishes it (spec 4.3): the scale code is a catalog field (D41).
  const upload = {
    entityType: 'MERCHANT',
    merchantStatus: 'AVAILABLE',
    onlyAddProducts: false,
    updatedObjects: [
      {
        id: 'loja-centro',
        categories: [
          { id: 'bovinos', name: 'Bovinos', index: 0, status: 'AVAILABLE', itemOfferId: ['oferta-picanha'] },
        ],
        itemOffers: [
          { id: 'oferta-picanha', itemId: 'picanha', price: { value: 12.19, currency: 'BRL' }, status: 'AVAILABLE' },
        ],
        items: [
          {
            id: 'picanha',
            name: 'Picanha',
            description: 'Picanha bovina',
            unit: 'KG',
            externalCode: 'BAL-PICANHA',
            scaleCode: SCALE_CODE,
          },
        ],
      },
    ],
  } as unknown as MerchantUpdateRequest;
  const synced = await pos.uploadCatalog(upload, { wait: true, intervalMs: 50, timeoutMs: 30_000 });
  if (synced?.status !== 'SUCCESS') throw new Error(`the catalog upload ended ${JSON.stringify(synced)}`);
  const productId = (await pos.getMerchant()).products.find((p) => p.pdv_external_id === 'picanha')?.id as string;
  await world.op.addCut(merchant.merchantId, productId, { id: 'bife', name: 'Bife', spice: { name: 'Alho' } });
  return { merchant, productId };
}

export async function placeOrder(world: ClientWorld, shop: ButcherShop) {
  return world.op.createOrder(shop.merchant.merchantId, {
    type: 'DELIVERY',
    items: [{ productId: shop.productId, quantity: 2.5, cutId: 'bife' }],
  });
}

/** The example's environment: the service, the key, and the label the scale printed. */
export function exampleEnv(world: ClientWorld, shop: ButcherShop): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CLEAVER_URL: world.server.url,
    CLEAVER_CLIENT_ID: shop.merchant.merchantId,
    CLEAVER_CLIENT_SECRET: shop.merchant.clientSecret,
    CLEAVER_SCALE_LABEL: SCALE_LABEL,
    CLEAVER_WAIT_SECONDS: '20',
  };
}

/** Runs a program to its end; its output (stdout and stderr) and exit code. */
export function runProgram(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += String(d);
    });
    child.stderr.on('data', (d) => {
      output += String(d);
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** The webhook the service delivered for this order's CREATED, as the receiver got it. */
export async function deliveredCreated(world: ClientWorld, orderId: string): Promise<ReceivedRequest> {
  const matches = (r: ReceivedRequest) => r.body.includes(orderId) && r.body.includes('"CREATED"');
  const requests = await world.receiver.waitFor((all) => all.some(matches), 20_000);
  return requests.find(matches) as ReceivedRequest;
}

/** The request's body and headers written as the verifier programs read them. */
export function writeNotification(dir: string, name: string, request: ReceivedRequest, body = request.body) {
  const bodyFile = join(dir, `${name}.body`);
  const headersFile = join(dir, `${name}.headers`);
  writeFileSync(bodyFile, body);
  writeFileSync(
    headersFile,
    Object.entries(request.headers)
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v[0] : v}\n`)
      .join(''),
  );
  return { bodyFile, headersFile };
}

/**
 * A language's example, given its compiled command, taken through a whole order flow: its output
 * shows every step in order, and the service shows the order weighed by the scale label (D41),
 * dispatched, and none of its events left pending.
 */
export async function expectWholeOrderFlow(world: ClientWorld, shop: ButcherShop, command: string, args: string[]) {
  const order = await placeOrder(world, shop);
  const { code, output } = await runProgram(command, args, exampleEnv(world, shop));
  expect(code, output).toBe(0);
  const steps = [
    'token: obtained',
    'product: Picanha (KG) cut bife=Bife',
    `event: CREATED order ${order.id}`,
    `order: ${order.displayId} DELIVERY CREATED`,
    '  item 0: Picanha 2.5 KG BRL 30.48 Bife – Alho',
    'confirmed',
    `weighed: item 0 2.504 kg (ordered 2.5) BRL 30.52 label ${SCALE_LABEL}`,
    'ready for pickup',
    'dispatched',
    'acknowledged: ',
    `request log: POST /v1/orders/${order.id}/dispatch 202`,
    `order flow complete: ${order.id} DISPATCHED (token requests: 1)`,
  ];
  let from = 0;
  for (const step of steps) {
    const at = output.indexOf(step, from);
    expect(at, `"${step}" after position ${from} of:\n${output}`).toBeGreaterThanOrEqual(0);
    from = at + step.length;
  }

  const after = await world.op.getOrder(order.id);
  expect(after.lastEvent).toBe('DISPATCHED');
  expect(after.items[0]).toMatchObject({ quantity: 2.504, orderedQuantity: 2.5, totalPrice: { value: 30.52 } });
  expect(after.items[0]).toMatchObject({ scaleLabel: SCALE_LABEL });
  const pos = createPosClient({
    baseUrl: world.server.url,
    clientId: shop.merchant.merchantId,
    clientSecret: shop.merchant.clientSecret,
  });
  expect(await pos.pollEvents()).toEqual([]);
}

/**
 * A language's verifier (`<command> <args> <secret> <body file> <headers file>`) given the webhook
 * the service delivered for a new order: accepted with both schemes and with Standard Webhooks
 * alone; refused with a tampered body (each scheme) or another secret.
 */
export async function expectVerifierOnRealDelivery(
  world: ClientWorld,
  shop: ButcherShop,
  dir: string,
  command: string,
  args: string[],
) {
  const order = await placeOrder(world, shop);
  const delivered = await deliveredCreated(world, order.id);
  const verify = (secret: string, files: { bodyFile: string; headersFile: string }) =>
    runProgram(command, [...args, secret, files.bodyFile, files.headersFile]);
  const secret = shop.merchant.clientSecret;

  const genuine = writeNotification(dir, `genuine-${order.id}`, delivered);
  expect(await verify(secret, genuine)).toEqual({
    code: 0,
    output: `valid x-app-signature,standard-webhooks CREATED ${order.id}\n`,
  });
  const tampered = writeNotification(
    dir,
    `tampered-${order.id}`,
    delivered,
    delivered.body.replace('CREATED', 'CANCELLED'),
  );
  expect(await verify(secret, tampered)).toEqual({
    code: 1,
    output: 'refused: X-App-Signature does not match the body\n',
  });
  expect(await verify('cs_another-secret', genuine)).toEqual({
    code: 1,
    output: 'refused: X-App-Signature does not match the body\n',
  });

  // The Standard Webhooks signature alone (a receiver that drops X-App-Signature) decides the same way.
  const { 'x-app-signature': _, ...standardOnly } = delivered.headers;
  const standard = writeNotification(dir, `standard-${order.id}`, { ...delivered, headers: standardOnly });
  expect(await verify(secret, standard)).toEqual({ code: 0, output: `valid standard-webhooks CREATED ${order.id}\n` });
  const standardTampered = writeNotification(
    dir,
    `standard-tampered-${order.id}`,
    { ...delivered, headers: standardOnly },
    `${delivered.body} `,
  );
  expect(await verify(secret, standardTampered)).toEqual({
    code: 1,
    output: 'refused: webhook-signature does not match the body\n',
  });
}

/** A language's checks program: every shared signature vector, and token reuse and renewal. */
export async function expectChecksPass(world: ClientWorld, shop: ButcherShop, command: string, args: string[]) {
  const vectorsFile = join(ROOT, 'clients/signature-vectors.json');
  const vectors = JSON.parse(readFileSync(vectorsFile, 'utf8')) as { cases: unknown[] };
  const { code, output } = await runProgram(command, [
    ...args,
    vectorsFile,
    world.server.url,
    shop.merchant.merchantId,
    shop.merchant.clientSecret,
  ]);
  expect(code, output).toBe(0);
  expect(output.match(/^ok: signature vector: /gm)).toHaveLength(vectors.cases.length);
  expect(output).toContain('ok: an unknown event type is kept as written');
  expect(output).toContain('ok: renewed 299 s before expiry');
  expect(output).toContain('ok: the renewed token is used');
}

/**
 * A language's OrderActions program (`<command> <args> <url> <id> <secret> <delivery> <takeout>
 * <accept> <deny> <start>`) takes every POS action on orders placed for it, and sets and reads
 * the scale label layouts (D41); its output and the orders' states as the service keeps them.
 */
export async function expectEveryOrderAction(world: ClientWorld, shop: ButcherShop, command: string, args: string[]) {
  const merchantId = shop.merchant.merchantId;
  const line = { productId: shop.productId, quantity: 1, cutId: 'bife' };
  const delivery = await world.op.createOrder(merchantId, { type: 'DELIVERY', items: [line] });
  const takeout = await world.op.createOrder(merchantId, { type: 'TAKEOUT', items: [line] });
  const accept = await world.op.createOrder(merchantId, { type: 'DELIVERY', items: [line] });
  await world.op.customerCancellation(accept.id, 'mudei de ideia');
  const deny = await world.op.createOrder(merchantId, { type: 'DELIVERY', items: [line] });
  await world.op.customerCancellation(deny.id);
  const start = new Date(Date.now() + 10 * 60_000).toISOString();
  const { code, output } = await runProgram(command, [
    ...args,
    world.server.url,
    merchantId,
    shop.merchant.clientSecret,
    delivery.id,
    takeout.id,
    accept.id,
    deny.id,
    start,
  ]);
  expect({ code, output }).toEqual({
    code: 0,
    output: [
      'confirm again: 400 Order has already same event type',
      'wrong code valid: False',
      'customer code valid: True',
      'delivery: DELIVERED',
      `takeout preparation starts: ${start}`,
      'takeout: PICKED_UP',
      'accepted: CANCELLED',
      'denied: CANCELLED_DENIED',
      'cancellation requested: CANCELLATION_REQUESTED',
      'scale label layouts: 2/6/WEIGHT/5/3 21/4/PRICE/6/2',
      'missing order: 404 Order not found',
      '',
    ].join('\n'),
  });
  const states = await Promise.all([delivery, takeout, accept, deny].map((o) => world.op.getOrder(o.id)));
  expect(states.map((o) => o.lastEvent)).toEqual(['DELIVERED', 'PICKED_UP', 'CANCELLED', 'CANCELLATION_REQUESTED']);
}
