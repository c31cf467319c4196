// Entry point of the reference POS: configuration from the environment, stops cleanly on
// SIGINT/SIGTERM (finishes and acknowledges the event in hand).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CleaverApiError, createPosClient, type MerchantUpdateRequest } from '@cleaver/pos-client';
import { createReferencePos } from './pos.js';

const env = process.env;
const required = (name: string) => {
  const value = env[name];
  if (!value) {
    process.stderr.write(`${name} is required\n`);
    process.exit(2);
  }
  return value;
};
const number = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);

const client = createPosClient({
  baseUrl: required('CLEAVER_URL'),
  clientId: required('CLEAVER_CLIENT_ID'),
  clientSecret: required('CLEAVER_CLIENT_SECRET'),
  onRetry: (r) => process.stdout.write(`retrying ${r.method} ${r.path} after ${r.status} in ${r.delayMs} ms\n`),
});
/**
 * The code the customer tells the courier at the door (spec 4.11). A real POS asks the person
 * handing over to type it; the sandbox has no customer at the door, so the sandbox answers for
 * it (GET /v1/sandbox/orders/{id}/customerDeliveryCode). Elsewhere that route does not exist:
 * this POS then has nobody to ask and marks the order delivered without a code.
 */
let sandboxCustomer = true;
async function deliveryCodeOf(orderId: string): Promise<string | undefined> {
  if (!sandboxCustomer) return undefined;
  try {
    return await client.sandboxCustomerDeliveryCode(orderId);
  } catch (error) {
    if (error instanceof CleaverApiError && error.status === 404 && error.title === 'Route not found') {
      sandboxCustomer = false;
      process.stdout.write('not a sandbox: no customer to ask for delivery codes\n');
      return undefined;
    }
    throw error;
  }
}

const catalogPath = env.POS_CATALOG_FILE ?? new URL('../catalog.json', import.meta.url).pathname;
const pos = createReferencePos({
  client,
  statePath: resolve(env.POS_STATE_FILE ?? 'pos-state.json'),
  catalog: JSON.parse(readFileSync(catalogPath, 'utf8')) as MerchantUpdateRequest,
  webhookURL: env.POS_WEBHOOK_URL ?? 'http://127.0.0.1:8099',
  pollIntervalMs: number('POS_POLL_INTERVAL_MS', 5_000),
  preparationMs: number('POS_PREPARATION_MS', 60_000),
  deliveryMs: number('POS_DELIVERY_MS', 120_000),
  kitchenTickMs: number('POS_KITCHEN_TICK_MS', 1_000),
  catalogPollMs: number('POS_CATALOG_POLL_MS', 5_000),
  deliveryCodeOf,
});

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stdout.write(`${signal}: stopping after the event in hand\n`);
    controller.abort();
  });
}
process.stdout.write('reference POS starting\n');
await pos.run(controller.signal);
process.stdout.write('reference POS stopped\n');
