import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type Clock, systemClock } from '../../src/lib/clock.js';
import type { LookupFn } from '../../src/lib/net/address-guard.js';
import type { EventListener } from '../../src/modules/events/index.js';
import type { WeighingListener } from '../../src/modules/orders/index.js';
import { createServices, type Services } from '../../src/services.js';
import { installContractCheck } from './contract.js';
import { createTestDatabase, type TestDatabase } from './test-db.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdefghijklmnop';
export const SECRET_KEY = 'test-secret-key-0123456789abcdefghijklmnopqrstu';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  env?: Record<string, string>;
  config?: Partial<Config>;
  database?: TestDatabase;
  /** Shared rate-limit counters, as with REDIS_URL. */
  redis?: Redis;
  /** DNS resolution of outbound connections (a fake resolver proves the address guard). */
  lookup?: LookupFn;
  /** Hears every recorded event in its transaction (CoreDeps.onEvent). */
  onEvent?: EventListener;
  /** Hears every weighing in its transaction (CoreDeps.onWeighed). */
  onWeighed?: WeighingListener;
}

/** The real app on a real, fresh database (style.md#tests: tests build the same app and inject). */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig(
    {
      CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN,
      CLEAVER_SECRET_KEY: SECRET_KEY,
      CLEAVER_DATA_DIR: '/nonexistent-test-data-dir',
      CLEAVER_PUBLIC_URL: 'http://cleaver.test',
      ...options.env,
    },
    options.config,
  );
  const services = createServices({
    config,
    db: database.db,
    clock: options.clock ?? systemClock,
    lookup: options.lookup,
    onEvent: options.onEvent,
    onWeighed: options.onWeighed,
  });
  await services.auth.start();
  await services.events.start();
  const app = await buildApp(services, { redis: options.redis });
  installContractCheck(app);
  await app.ready();
  return {
    app,
    services,
    database,
    config,
    async close() {
      // A connection busy when the close begins turns idle once its answer is out, and Node then
      // keeps it for Fastify's 72 s keep-alive: closing idle ones again until the app is closed,
      // as src/server.ts does on a stop (a listening app's afterAll once waited out a 60 s hook).
      const closingIdle = setInterval(() => app.server.closeIdleConnections(), 50);
      try {
        await app.close();
      } finally {
        clearInterval(closingIdle);
      }
      await services.events.stop();
      await services.auth.stop();
      if (!options.database) await database.close();
    },
  };
}

export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface MerchantCredentials {
  merchantId: string;
  keyId: string;
  clientSecret: string;
  token: string;
}

function expectStatus(res: LightMyRequestResponse, status: number): void {
  if (res.statusCode !== status) {
    throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  }
}

/** Operator creates a merchant and a key; the POS takes a token. All through HTTP. */
export async function createMerchant(app: FastifyInstance, name = 'Açougue Boi Bravo'): Promise<MerchantCredentials> {
  const m = await app.inject({ method: 'POST', url: '/admin/v1/merchants', headers: adminHeaders, payload: { name } });
  expectStatus(m, 201);
  const merchantId = m.json().id as string;
  return { merchantId, ...(await addIntegrationKey(app, merchantId)) };
}

export async function addIntegrationKey(
  app: FastifyInstance,
  merchantId: string,
): Promise<{ keyId: string; clientSecret: string; token: string }> {
  const k = await app.inject({
    method: 'POST',
    url: `/admin/v1/merchants/${merchantId}/integrationKeys`,
    headers: adminHeaders,
    payload: {},
  });
  expectStatus(k, 201);
  const { keyId, clientSecret } = k.json() as { keyId: string; clientSecret: string };
  const t = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { client_id: merchantId, client_secret: clientSecret, grant_type: 'client_credentials' },
  });
  expectStatus(t, 200);
  return { keyId, clientSecret, token: t.json().access_token as string };
}
