import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generatedRuns } from '../support/generated-inputs.js';
import { createLogisticsApp, type LogisticsApp } from '../support/logistics.js';
import { createProduct, createSimpleOrder } from '../support/orders.js';
import {
  addIntegrationKey,
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import {
  type FuzzContext,
  type FuzzRequest,
  fingerprint,
  fingerprintQuery,
  listOperations,
  logisticsHeaders,
  type Operation,
  partialWritesAllowed,
  problemsWith,
  rejectedWriteProblems,
  requestsFor,
  type WriteWatch,
  watchWrites,
} from './fuzz-support.js';

// Fuzzing (architecture.md#fuzzing): every documented operation gets generated requests (500 at full
// depth, `npm run test:deep`; a share of them in `npm test`, test/support/generated-inputs.ts)
// with valid credentials, so they reach validation: wrong types, missing and extra fields, huge
// strings and arrays, deep nesting, invalid UTF-8, wrong content types, oversized bodies (against
// a second app on the same database with a 1 KiB body limit), random path and query params.
// Every answer: no 5xx; an error is JSON {title, status} with status = the HTTP status; and a
// rejected request on a mutating method left every table exactly as it was. Every answer is
// also checked against /openapi.json by test/support/contract.ts.

const RUNS = generatedRuns(500, 40);
const UNLIMITED = {
  CLEAVER_RATE_LIMIT_AUTH: '10000000',
  CLEAVER_RATE_LIMIT_READ: '10000000',
  CLEAVER_RATE_LIMIT_WRITE: '10000000',
};

export type FuzzGroup = 'oauth-logistics' | 'orders' | 'merchant' | 'admin-merchants' | 'admin-other';

/** Every path falls in exactly one group: the groups are files, so they run in parallel. */
export function fuzzGroup(path: string): FuzzGroup {
  if (path.startsWith('/oauth/') || path.startsWith('/v1/logistics/')) return 'oauth-logistics';
  if (path.startsWith('/v1/orders/')) return 'orders';
  if (path.startsWith('/admin/')) {
    return /^\/admin\/v1\/merchants(\/\{merchantId\})?(\/(integrationKeys|categories|products|catalog)|$)/.test(path)
      ? 'admin-merchants'
      : 'admin-other';
  }
  return 'merchant';
}

/**
 * The operations of /openapi.json in `group` (see fuzzGroup), each fuzzed in its own test. The
 * list comes from the app itself, so a new route is fuzzed without anyone listing it.
 */
export async function defineFuzzSuite(group: FuzzGroup): Promise<void> {
  const probe = await createTestApp();
  const all = listOperations(probe.app);
  await probe.close();
  const components = all.components;
  const operations = all.operations.filter((op) => fuzzGroup(op.path) === group);
  let t: TestApp;
  let small: TestApp;
  let merchant: MerchantCredentials;
  let partner: LogisticsApp;
  let ctx: FuzzContext;
  let fingerprintSql: string;
  let writes: WriteWatch | undefined;

  beforeAll(async () => {
    // The long polls (`cleaver listen`'s, the feed's `wait`) answer at once here: 500 requests may
    // not each wait out a generated `wait` (one seed held GET /admin/v1/feed for 37 s).
    const config = { listenMaxWaitSec: 0, feedMaxWaitSec: 0 };
    t = await createTestApp({ env: UNLIMITED, config });
    small = await createTestApp({ env: { ...UNLIMITED, CLEAVER_BODY_LIMIT: '1024' }, database: t.database, config });
    merchant = await createMerchant(t.app, 'Açougue Fuzz');
    const other = await createMerchant(t.app, 'Açougue Outro');
    const victimKey = await addIntegrationKey(t.app, merchant.merchantId);
    partner = await createLogisticsApp(t.app, [merchant.merchantId]);
    const victimPartner = await createLogisticsApp(t.app, [other.merchantId]);
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await createSimpleOrder(t.app, merchant.merchantId));
    orders.push(await createSimpleOrder(t.app, merchant.merchantId, 'TAKEOUT'));
    const foreign = await createSimpleOrder(t.app, other.merchantId);
    // D37: a product with a cut, so the product and cut routes are fuzzed on real ids too.
    const cutProduct = await createProduct(t.app, merchant.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/products/${cutProduct.id}/cuts`,
      headers: adminHeaders,
      payload: { id: 'bife', name: 'Bife' },
    });
    const polled = await t.app.inject({ method: 'GET', url: '/v1/events:polling', headers: bearer(merchant.token) });
    const eventIds = (polled.json() as Array<{ eventId: string }>).map((e) => e.eventId);
    const orderIds = [...orders.map((o) => o.id), foreign.id];
    ctx = {
      ids: {
        merchantId: [merchant.merchantId, other.merchantId],
        client_id: [merchant.merchantId],
        client_secret: [merchant.clientSecret],
        // Deleting these does not take away the credentials the other operations use.
        keyId: [victimKey.keyId],
        appId: [victimPartner.appId],
        orderId: orderIds,
        id: [...eventIds, ...orderIds],
        eventId: eventIds,
        productId: [cutProduct.id],
        cutId: ['bife'],
      },
    };
    fingerprintSql = await fingerprintQuery(t.database.db);
    // Which requests wrote: a request that sent no writing statement cannot have changed a
    // table, so the tables are fingerprinted only after one that did (and before the next).
    writes = watchWrites(t.database.db);
  }, 120_000);

  afterAll(async () => {
    writes?.stop();
    await small?.close();
    await t?.close();
  });

  function authFor(op: Operation, body: string | Buffer | undefined): Record<string, string> {
    switch (op.security) {
      case 'bearer':
        return bearer(merchant.token);
      case 'operator':
        return adminHeaders;
      case 'xAppSignature':
        return logisticsHeaders(partner, merchant.merchantId, body);
      default:
        return {};
    }
  }

  const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

  describe(`fuzzing ${group} operations of /openapi.json`, () => {
    test('the group has operations', () => {
      expect(operations.length).toBeGreaterThan(0);
    });

    for (const op of operations) {
      const allowance = partialWritesAllowed(op);
      const unchanged = allowance.length
        ? `nothing written when rejected but the ${allowance.join(', ')} updates the spec keeps`
        : 'nothing written when rejected';
      test(`${op.method} ${op.path}: ${RUNS} generated requests, no 5xx, {title, status}, ${unchanged}`, async () => {
        const statuses = new Map<number, number>();
        let known: string | undefined;
        await fc.assert(
          fc.asyncProperty(requestsFor(op, components, ctx, authFor), async (req: FuzzRequest) => {
            const target = req.small ? small : t;
            const mutating = MUTATING.has(req.method);
            // A homologation run a generated request started plays its scenarios in the
            // background (orders, events): cancel it so its writes are not taken for this
            // request's, and take a new baseline.
            if (t.services.homologationObserver.active.size > 0) {
              await t.services.homologation?.stop();
              known = undefined;
            }
            if (mutating) known ??= await fingerprint(t.database.db, fingerprintSql);
            writes?.reset();
            const res = await target.app.inject({
              method: req.method as 'GET',
              url: req.url,
              headers: req.headers,
              payload: req.payload,
            });
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            const where = `${req.kind} ${req.method} ${req.url.slice(0, 200)} ${String(req.payload ?? '').slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
            expect(problemsWith(res), where).toEqual([]);
            if (op.path === '/oauth/refresh' && res.statusCode === 200) {
              merchant = { ...merchant, token: (res.json() as { access_token: string }).access_token };
            }
            if (!writes?.wrote()) {
              // Nothing written: the baseline still holds, whatever the answer.
            } else if (mutating && res.statusCode >= 400) {
              const after = await fingerprint(t.database.db, fingerprintSql);
              expect(
                rejectedWriteProblems(op, known ?? '', after),
                `rejected request changed the database: ${where}`,
              ).toEqual([]);
              known = after;
            } else {
              known = undefined; // accepted (or a read that wrote): a new baseline before the next write
            }
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
        // The requests got past the credentials: most answers are not 401.
        const unauthorized = statuses.get(401) ?? 0;
        expect(unauthorized, JSON.stringify(Object.fromEntries(statuses))).toBeLessThan(RUNS / 2);
      }, 240_000);
    }
  });
}
