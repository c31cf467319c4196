// What the tests of the Pascal and C# clients (clients/) share: a live sandbox service on a real
// socket with its workers, a webhook receiver the merchant registered, a butcher's KG product with
// a cut and a scale code, the order a customer places, and the compiled programs run as a POS
// runs them. Each language's test compiles its client, runs its example's whole order flow, and
// hands the webhooks the service really delivered to its verifier.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createOperatorClient, createPosClient, type OperatorClient } from '../../packages/pos-client/src/index.js';
import { type RunningApp, startApp, startAppWorkers } from '../../packages/pos-client/test/support.js';
import { ADMIN_TOKEN, createMerchant, type MerchantCredentials } from '../support/test-app.js';
import { type ReceivedRequest, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

export const run = promisify(execFile);

/**
 * Whether a compiler is installed. CI installs both (.ci/run), so there its absence fails the
 * test loudly; on a developer's machine without it the test is skipped with a message.
 */
export async function compilerPresent(command: string, versionArgs: string[]): Promise<boolean> {
  try {
    await run(command, versionArgs);
    return true;
  } catch {
    if (process.env.CI)
      throw new Error(`${command} is not installed: CI installs it (.ci/run), the client test needs it`);
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
  /** Whether this build weighs by scale label (D41): the label layouts route answers. */
  labels: boolean;
}

/**
 * A merchant whose POS registered the receiver as its webhook URL, with picanha sold by KG at
 * R$ 12.19 (scale code 010085 and D41's layout where labels exist) and a cut.
 */
export async function openButcherShop(world: ClientWorld, name: string): Promise<ButcherShop> {
  const merchant = await createMerchant(world.server.app, name);
  const pos = createPosClient({
    baseUrl: world.server.url,
    clientId: merchant.merchantId,
    clientSecret: merchant.clientSecret,
  });
  await pos.onboard({ ordersWebhookURL: world.receiver.url });
  const layouts = await world.server.app.inject({
    method: 'PUT',
    url: '/v1/merchant/scaleLabelLayouts',
    headers: { authorization: `Bearer ${merchant.token}` },
    payload: [{ prefix: '2', codeDigits: 6, value: 'WEIGHT', valueDigits: 5, decimals: 3 }],
  });
  const labels = layouts.statusCode !== 404;
  if (labels && layouts.statusCode >= 300) throw new Error(`scale label layouts refused: ${layouts.body}`);
  if (!labels) {
    process.stdout.write(
      'this build has no scale labels yet (PUT /v1/merchant/scaleLabelLayouts is 404: D41 is not merged): ' +
        'the example weighs by the weight typed at the counter instead\n',
    );
  }
  const product = await world.op.createProduct(merchant.merchantId, {
    name: 'Picanha',
    price: 12.19,
    unit: 'KG',
    ...(labels ? { scaleCode: SCALE_CODE } : {}),
  } as Parameters<OperatorClient['createProduct']>[1]);
  const productId = product.id as string;
  await world.op.addCut(merchant.merchantId, productId, { id: 'bife', name: 'Bife', spice: { name: 'Alho' } });
  return { merchant, productId, labels };
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
    ...(shop.labels ? { CLEAVER_SCALE_LABEL: SCALE_LABEL } : { CLEAVER_SCALE_KG: '2.504' }),
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
