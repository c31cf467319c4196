import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createCatalogService } from '../../src/modules/catalog/index.js';
import {
  merchantBody,
  merchantRecord,
  operatorSyncs,
  productByPdv,
  sampleCatalog,
  syncStatus,
} from '../support/catalog.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

const API_KEY = 'pos-api-key-123';
const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;
let server: Server;
let baseURL: string;
/** What the fake POS answers on GET /v1/merchant, per test. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const seen: Array<{ url: string | undefined; apiKey: string | string[] | undefined }> = [];

beforeAll(async () => {
  t = await createTestApp({ clock });
  server = createServer((req, res) => {
    seen.push({ url: req.url, apiKey: req.headers['x-api-key'] });
    if (req.method !== 'GET' || req.url !== '/v1/merchant') {
      res.writeHead(404).end();
      return;
    }
    if (req.headers['x-api-key'] !== API_KEY) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"title":"bad key"}');
      return;
    }
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function onboarded(apiKey = API_KEY): Promise<MerchantCredentials> {
  const me = await createMerchant(t.app);
  const res = await t.app.inject({
    method: 'PUT',
    url: '/v1/merchantOnboarding',
    headers: bearer(me.token),
    payload: { ordersWebhookURL: 'http://127.0.0.1:9', getMerchantURL: { baseURL, apiKey } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return me;
}

const pull = (merchantId: string) =>
  t.app.inject({ method: 'POST', url: `/admin/v1/merchants/${merchantId}/catalogPull`, headers: adminHeaders });

const json = (body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

describe('POST /admin/v1/merchants/{id}/catalogPull (D20)', () => {
  it('fetches {baseURL}/v1/merchant with X-API-KEY and processes the answer like an upload', async () => {
    const me = await onboarded();
    answer = json(merchantBody(sampleCatalog(), { merchantStatus: 'UNAVAILABLE' }));
    const res = await pull(me.merchantId);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ syncId: expect.any(String), status: 'PROCESSING' });
    expect((await syncStatus(t, me)).status).toBe('PROCESSING');
    seen.length = 0;
    await t.services.catalog.worker.drain();
    expect(seen).toEqual([{ url: '/v1/merchant', apiKey: API_KEY }]);
    const status = await syncStatus(t, me);
    expect(status.status).toBe('SUCCESS');
    const r = await merchantRecord(t, me);
    expect(r.status).toBe('UNAVAILABLE');
    expect(productByPdv(r, 'P1')?.price).toBe(89.9);
    const [sync] = await operatorSyncs(t, me.merchantId);
    expect(sync).toMatchObject({ id: res.json().syncId, source: 'PULL', entityType: 'MERCHANT', status: 'SUCCESS' });
  });

  it('records a refused fetch as a FAIL sync with a readable reason', async () => {
    const me = await onboarded('wrong-key');
    const res = await pull(me.merchantId);
    expect(res.statusCode).toBe(202);
    await t.services.catalog.worker.drain();
    expect(await syncStatus(t, me)).toMatchObject({
      status: 'FAIL',
      moreInfo: `Pull failed: GET ${baseURL}/v1/merchant answered HTTP 401`,
    });
  });

  it('records an answer that is not JSON, or not an upload body, as FAIL', async () => {
    const me = await onboarded();
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>');
    await pull(me.merchantId);
    await t.services.catalog.worker.drain();
    expect((await syncStatus(t, me)).moreInfo).toBe(
      `Pull failed: the POS answer from GET ${baseURL}/v1/merchant is not valid JSON (Unexpected token '<', "<html>" is not valid JSON)`,
    );
    answer = json({ entityType: 'MERCHANT', updatedObjects: [{ id: 'S' }] });
    await pull(me.merchantId);
    await t.services.catalog.worker.drain();
    expect(await syncStatus(t, me)).toMatchObject({
      status: 'FAIL',
      moreInfo:
        'Pull failed: the POS answer is not an upload body (merchantStatus is required when entityType is MERCHANT)',
    });
  });

  it('enforces the size limit and the timeout', async () => {
    const me = await onboarded();
    const limited = createCatalogService({
      db: t.database.db,
      merchants: t.services.merchants,
      clock,
      getMerchantUrl: async () => ({ baseURL, apiKey: API_KEY }),
      pullLimits: { timeoutMs: 300, maxBytes: 1000 },
    });
    answer = json({ ...merchantBody(sampleCatalog()), padding: 'x'.repeat(5000) });
    await pull(me.merchantId);
    await limited.worker.drain();
    expect((await syncStatus(t, me)).moreInfo).toBe('Pull failed: the POS answer is larger than 1000 bytes');
    answer = () => {}; // never answers
    await pull(me.merchantId);
    await limited.worker.drain();
    expect((await syncStatus(t, me)).moreInfo).toBe(`Pull failed: GET ${baseURL}/v1/merchant took longer than 300 ms`);
  });

  it('pulls over https only in production', async () => {
    const me = await onboarded();
    const production = createCatalogService({
      db: t.database.db,
      merchants: t.services.merchants,
      clock,
      getMerchantUrl: async () => ({ baseURL, apiKey: API_KEY }),
      production: true,
    });
    await pull(me.merchantId);
    seen.length = 0;
    await production.worker.drain();
    expect(seen).toEqual([]);
    expect(await syncStatus(t, me)).toMatchObject({
      status: 'FAIL',
      moreInfo: 'Pull failed: getMerchantURL.baseURL must use https in production',
    });
  });

  it('400 when getMerchantURL was never registered; 404 for an unknown merchant', async () => {
    const me = await createMerchant(t.app);
    const res = await pull(me.merchantId);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title: 'getMerchantURL is not registered for this merchant', status: 400 });
    const unknown = await pull('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ title: 'Merchant not found', status: 404 });
    const syncs = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/merchants/00000000-0000-4000-8000-000000000000/catalogSyncs',
      headers: adminHeaders,
    });
    expect(syncs.statusCode).toBe(404);
    expect(syncs.json()).toEqual({ title: 'Merchant not found', status: 404 });
  });
});
