// Connections that break (issue "Hardening", item 11): a proxy on 127.0.0.1 in front of the real
// server resets the connection of chosen requests, either before the request reaches the server
// or after the server answered it (the answer never reaches the client). What the client may
// resend, and how it reads the answer to a resend, follows the spec's own rules (README "Retries").
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createMerchant, type MerchantCredentials } from '../../../test/support/test-app.js';
import {
  CleaverNetworkError,
  createOperatorClient,
  createPosClient,
  type MerchantUpdateRequest,
  type OperatorClient,
  type PosClient,
  type RetryInfo,
} from '../src/index.js';
import {
  type FailingProxy,
  RESET,
  type RunningApp,
  recordingSleep,
  startApp,
  startAppWorkers,
  startFailingProxy,
} from './support.js';

interface LogLine {
  level: string;
  fields: Record<string, unknown>;
  message?: string;
}

function memoryLogger() {
  const lines: LogLine[] = [];
  const at = (level: string) => (fields: object, message?: string) =>
    lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('pos-client against a real server: connections that break', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let proxy: FailingProxy;
  let op: OperatorClient;
  let merchant: MerchantCredentials;
  let productId: string;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    proxy = await startFailingProxy(server.url);
    op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
    merchant = await createMerchant(server.app);
    productId = (await op.createProduct(merchant.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' }))
      .id as string;
  });
  afterAll(async () => {
    await proxy?.close();
    await workers?.stop();
    await server?.close();
  });
  beforeEach(() => {
    proxy.inject({ count: 0, reset: 'before' });
    proxy.requests.length = 0;
  });

  /** A client through the proxy that waits none of its backoff delays, with its token already taken. */
  async function client(extra: Partial<Parameters<typeof createPosClient>[0]> = {}) {
    const { sleep, delays } = recordingSleep();
    const retries: RetryInfo[] = [];
    const log = memoryLogger();
    const c = createPosClient({
      baseUrl: proxy.url,
      clientId: merchant.merchantId,
      clientSecret: merchant.clientSecret,
      sleep,
      onRetry: (r) => retries.push(r),
      logger: log.logger,
      ...extra,
    });
    await c.token();
    proxy.requests.length = 0;
    return { c, delays, retries, log };
  }

  const newOrder = () => op.createOrder(merchant.merchantId, { type: 'DELIVERY', items: [{ productId, quantity: 1 }] });
  const onPath = (suffix: string) => (_method: string, path: string) => path.endsWith(suffix);
  const calls = (suffix: string) =>
    proxy.requests.filter((r) => r.path.endsWith(suffix)).map((r) => (r.status === RESET ? 'reset' : r.status));
  const eventsOf = async (orderId: string, type: string) =>
    ((await op.getOrder(orderId)).events as Array<{ eventType: string }>).filter((e) => e.eventType === type);
  async function confirmBody(c: PosClient, orderId: string) {
    const order = await c.getOrder(orderId);
    proxy.requests.length = 0;
    return { createdAt: order.createdAt, orderExternalCode: 'PDV-1' };
  }

  it('confirm whose connection is reset before it reaches the server: resent, and it goes through', async () => {
    const { c, retries } = await client();
    const order = await newOrder();
    const body = await confirmBody(c, order.id);
    proxy.inject({ count: 1, reset: 'before', match: onPath('/confirm') });
    await c.confirm(order.id, body);
    expect(calls('/confirm')).toEqual(['reset', 202]);
    expect(retries).toMatchObject([{ method: 'POST', status: 'network', stage: 'request', attempt: 1 }]);
    expect((await c.getOrder(order.id)).lastEvent).toBe('CONFIRMED');
  });

  it('confirm whose answer is lost after the server confirmed: the resend is refused as already done, which is success', async () => {
    const { c, log } = await client();
    const order = await newOrder();
    const body = await confirmBody(c, order.id);
    proxy.inject({ count: 1, reset: 'after', match: onPath('/confirm') });
    await c.confirm(order.id, body);
    expect(proxy.requests.filter((r) => r.path.endsWith('/confirm')).map((r) => [r.status, r.upstreamStatus])).toEqual([
      [RESET, 202],
      [400, undefined],
    ]);
    expect(await eventsOf(order.id, 'CONFIRMED')).toHaveLength(1);
    expect(log.lines.map((l) => l.level)).toEqual(['warn', 'info']); // the retry, then "already done"
    expect(log.lines[1].fields).toMatchObject({ status: 400, body: { title: 'Order has already same event type' } });
  });

  it('without a broken connection, the same refusal is an error (the order was confirmed by someone else)', async () => {
    const { c } = await client();
    const order = await newOrder();
    const body = await confirmBody(c, order.id);
    await c.confirm(order.id, body);
    const again = await c.confirm(order.id, body).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 400, title: 'Order has already same event type' });
  });

  it('requestCancellation, dispatch and delivered answered "already done" after a lost answer: success, once each', async () => {
    const { c } = await client();
    const order = await newOrder();
    await c.confirm(order.id, await confirmBody(c, order.id));
    for (const [suffix, call, eventType] of [
      ['/dispatch', () => c.dispatch(order.id), 'DISPATCHED'],
      ['/delivered', () => c.delivered(order.id), 'DELIVERED'],
    ] as const) {
      proxy.inject({ count: 1, reset: 'after', match: onPath(suffix) });
      await call();
      expect(calls(suffix)).toEqual(['reset', 400]);
      expect(await eventsOf(order.id, eventType)).toHaveLength(1);
    }
    const other = await newOrder();
    proxy.inject({ count: 1, reset: 'after', match: onPath('/requestCancellation') });
    await c.requestCancellation(other.id, { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'AUTO' });
    expect(calls('/requestCancellation')).toEqual(['reset', 400]);
    expect(await eventsOf(other.id, 'CANCELLATION_REQUESTED')).toHaveLength(1);
  });

  it('accept/deny after a lost answer: done when the order shows the answer, an error when it does not', async () => {
    const { c } = await client();
    const accepted = await newOrder();
    await op.customerCancellation(accepted.id, 'mudei de ideia');
    proxy.inject({ count: 1, reset: 'after', match: onPath('/acceptCancellation') });
    await c.acceptCancellation(accepted.id);
    expect(calls('/acceptCancellation')).toEqual(['reset', 400]);
    expect((await c.getOrder(accepted.id)).lastEvent).toBe('CANCELLED');

    const denied = await newOrder();
    await op.customerCancellation(denied.id);
    proxy.inject({ count: 1, reset: 'after', match: onPath('/denyCancellation') });
    await c.denyCancellation(denied.id, { reason: 'Já saiu', code: 'DELIVERY_PROBLEM' });
    expect(calls('/denyCancellation')).toEqual(['reset', 400]);
    expect((await c.getOrder(denied.id)).lastEvent).toBe('CANCELLED_DENIED');

    // The request was answered before, not by this accept (whose first attempt never reached the
    // server): the order shows CANCELLED_DENIED, so the refusal stands.
    const answered = await newOrder();
    await op.customerCancellation(answered.id);
    await c.denyCancellation(answered.id, { reason: 'Já saiu', code: 'DELIVERY_PROBLEM' });
    proxy.requests.length = 0;
    proxy.inject({ count: 1, reset: 'before', match: onPath('/acceptCancellation') });
    const error = await c.acceptCancellation(answered.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, title: 'No cancellation request to answer' });
    expect(calls('/acceptCancellation')).toEqual(['reset', 400]);
  });

  it('acknowledgment and tracking are resent (spec 4.13 rule 3; tracking is stored again)', async () => {
    const { c } = await client();
    const order = await newOrder();
    await c.confirm(order.id, await confirmBody(c, order.id));
    await c.dispatch(order.id);
    proxy.inject({ count: 1, reset: 'after', match: onPath('/tracking') });
    await c.tracking(order.id, { geoLocalization: { latitude: -23.55, longitude: -46.63 } });
    expect(calls('/tracking')).toEqual(['reset', 202]);
    expect((await op.getOrder(order.id)).tracking).toHaveLength(2);

    const pending = (await c.pollEvents()).filter((e) => e.orderId === order.id);
    expect(pending.map((e) => e.eventType)).toEqual(['CREATED', 'CONFIRMED', 'DISPATCHED']);
    proxy.inject({ count: 1, reset: 'after', match: onPath('/acknowledgment') });
    await c.acknowledgeEvents(pending);
    expect(calls('/acknowledgment')).toEqual(['reset', 202]);
    expect((await c.pollEvents()).filter((e) => e.orderId === order.id)).toEqual([]);
  });

  it('gives up after maxAttempts broken connections with a CleaverNetworkError', async () => {
    const { c, retries } = await client({ retry: { maxAttempts: 3 } });
    const order = await newOrder();
    const body = await confirmBody(c, order.id);
    proxy.inject({ count: 5, reset: 'before', match: onPath('/confirm') });
    const error = await c.confirm(order.id, body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CleaverNetworkError);
    expect(error).toMatchObject({ method: 'POST', stage: 'request', mayHaveBeenProcessed: true });
    expect(calls('/confirm')).toEqual(['reset', 'reset', 'reset']);
    expect(retries).toHaveLength(2);
  });

  it('the catalog upload is NOT resent after a broken connection: the server may have queued it (3.2)', async () => {
    const { c, retries } = await client();
    const catalog: MerchantUpdateRequest = {
      entityType: 'ITEM_OFFER',
      updatedObjects: [{ itemId: 'nao-existe', status: 'UNAVAILABLE' }],
    };
    proxy.inject({ count: 1, reset: 'after', match: onPath('/merchantUpdate') });
    const error = await c.uploadCatalog(catalog).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CleaverNetworkError);
    expect(error).toMatchObject({ method: 'PUT', stage: 'request', mayHaveBeenProcessed: true });
    expect(proxy.requests.filter((r) => r.path === '/v1/merchantUpdate').map((r) => r.upstreamStatus)).toEqual([204]);
    expect(retries).toEqual([]);
    // It did land: merchantStatus is how to tell, before deciding to upload again.
    const status = await c.merchantStatus();
    expect(['PROCESSING', 'FAIL']).toContain(status.status);
  });

  it('a request that never left (connection refused) is resent, the catalog upload too', async () => {
    let resumed: Promise<void> | undefined;
    const { c, retries } = await client({
      onRetry: (r) => {
        retries.push(r);
        // The server comes back while the client waits to retry.
        resumed ??= proxy.resume();
      },
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))),
    });
    await proxy.pause();
    // Let the client side see its idle keep-alive connections close: a request written into
    // one of those would be a broken connection, not a refused one.
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      const catalog: MerchantUpdateRequest = {
        entityType: 'ITEM_OFFER',
        updatedObjects: [{ itemId: 'nao-existe', status: 'AVAILABLE' }],
      };
      await c.uploadCatalog(catalog);
      expect(retries).toMatchObject([{ method: 'PUT', status: 'network', stage: 'connect', code: 'ECONNREFUSED' }]);
      expect(calls('/merchantUpdate')).toEqual([204]);
    } finally {
      await (resumed ?? proxy.resume());
    }
  });

  it('a non-idempotent operator call is not resent after a reset', async () => {
    const { sleep } = recordingSleep();
    const retries: RetryInfo[] = [];
    const operator = createOperatorClient({
      baseUrl: proxy.url,
      adminToken: ADMIN_TOKEN,
      sleep,
      onRetry: (r) => retries.push(r),
    });
    proxy.inject({ count: 1, reset: 'before', match: (m, p) => m === 'POST' && p.endsWith('/orders') });
    const error = await operator
      .createOrder(merchant.merchantId, { type: 'DELIVERY', items: [{ productId, quantity: 1 }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CleaverNetworkError);
    expect(calls('/orders')).toEqual(['reset']);
    expect(retries).toEqual([]);
  });
});
