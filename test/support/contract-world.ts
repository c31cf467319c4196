// One world per test file (module state; Vitest loads this module anew for each file).
// The world the contract tests send the published examples into (test/foundation/contract-
// examples.test.ts, test/foundation/content-types.test.ts): one app, a merchant whose catalog is
// the published upload example, a logistics partner, and for each operation the records its
// example stands for (an order in the state the action needs, a key, an operator…).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { hmacSha256Hex } from '../../src/lib/crypto.js';
import { eventIdOf } from '../../src/modules/events/index.js';
import { createLogisticsApp, type LogisticsApp } from './logistics.js';
import { createOrder, createProduct, createSimpleOrder } from './orders.js';
import {
  addIntegrationKey,
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from './test-app.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
export type Json = Record<string, unknown>;

const UNLIMITED = {
  CLEAVER_RATE_LIMIT_AUTH: '10000000',
  CLEAVER_RATE_LIMIT_READ: '10000000',
  CLEAVER_RATE_LIMIT_WRITE: '10000000',
};

export interface Operation {
  id: string;
  method: string;
  path: string;
  op: Json;
}

/** What an example is sent against: path parameters, ids bound by field name, and headers. */
export interface Target {
  params?: Record<string, string>;
  query?: Record<string, string>;
  bind?: Record<string, string>;
  headers?: (payload: string) => Record<string, string>;
  /** After the call: stop what it started in the background (a homologation run). */
  after?: () => Promise<void>;
}

let t: TestApp;
let doc: Json;
let me: MerchantCredentials;
let partner: LogisticsApp;
let ajv: Ajv2020;
let ops: Operation[] = [];

const inject = (method: string, url: string, headers: Record<string, string>, payload?: string) =>
  t.app.inject({ method: method as 'GET', url, headers, payload });

async function call(method: string, url: string, body: unknown, headers: Record<string, string> = adminHeaders) {
  const res = await inject(method, url, { ...headers, 'content-type': 'application/json' }, JSON.stringify(body));
  expect(res.statusCode, `${method} ${url} ${res.body}`).toBeLessThan(300);
  return res;
}

const pos = () => bearer(me.token);

/** An order of the test merchant, moved on by the POS actions named. */
async function orderAfter(actions: string[], extra: Json = {}, type = 'DELIVERY') {
  const order = Object.keys(extra).length
    ? await createOrder(t.app, me.merchantId, { type, items: [{ pdvId: 'picanha', quantity: 1 }], ...extra })
    : await createSimpleOrder(t.app, me.merchantId, type);
  for (const action of actions) {
    if (action === 'customerCancellation') {
      await call('POST', `/admin/v1/orders/${order.id}/customerCancellation`, { reason: 'Mudei de ideia' });
    } else if (action === 'requestCancellation') {
      await call(
        'POST',
        `/v1/orders/${order.id}/requestCancellation`,
        { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'MANUAL' },
        pos(),
      );
    } else if (action === 'confirm') {
      await call(
        'POST',
        `/v1/orders/${order.id}/confirm`,
        { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-1' },
        pos(),
      );
    } else {
      await call('POST', `/v1/orders/${order.id}/${action}`, {}, pos());
    }
  }
  return order.id;
}

/**
 * D45: a statement of the test merchant, with one concluded order; `closed`: its period moved
 * into the past (while it is OPEN, nothing refuses that) and closed by the closing pass.
 */
async function statementOf(closed: boolean): Promise<string> {
  const orderId = await orderAfter(['confirm']);
  await call('POST', `/admin/v1/orders/${orderId}/events`, { eventType: 'CONCLUDED' });
  const { rows } = await t.database.db.query<{ statement_id: string }>(
    `SELECT statement_id FROM statement_lines WHERE order_id = $1 AND kind = 'ORDER'`,
    [orderId],
  );
  const statementId = rows[0]?.statement_id as string;
  if (closed) {
    await t.database.db.query(
      `UPDATE statements SET period_start = period_start - interval '400 days', period_end = period_start - interval '399 days'
        WHERE id = $1`,
      [statementId],
    );
    await t.services.statements.closeDue();
  }
  return statementId;
}

/** The world each operation's example is sent into, by operationId. */
async function targetOf(id: string): Promise<Target> {
  switch (id) {
    case 'postOauthToken':
      return { bind: { client_id: me.merchantId, client_secret: me.clientSecret } };
    case 'postOauthRevoke': {
      const spare = await addIntegrationKey(t.app, me.merchantId);
      return { bind: { client_id: me.merchantId, client_secret: spare.clientSecret, token: spare.token } };
    }
    case 'postV1OrdersByOrderIdConfirm':
    case 'postV1OrdersByOrderIdRequestCancellation':
    case 'patchV1OrdersByOrderIdDetails':
      return { params: { orderId: await orderAfter([]) } };
    case 'postV1OrdersByOrderIdDenyCancellation':
    case 'postV1OrdersByOrderIdAcceptCancellation':
      return { params: { orderId: await orderAfter(['customerCancellation']) } };
    case 'getV1MerchantStatus':
      return { query: { merchantId: me.merchantId } };
    case 'getV1OrdersByOrderId':
      return { params: { orderId: await orderAfter([]) } };
    case 'postV1OrdersByOrderIdReadyForPickup':
    case 'postV1OrdersByOrderIdPreparing':
    case 'postV1OrdersByOrderIdWeighing':
      return { params: { orderId: await orderAfter(['confirm']) } };
    case 'postV1OrdersByOrderIdDelivered':
      return { params: { orderId: await orderAfter(['confirm', 'dispatch']) } };
    case 'postV1OrdersByOrderIdPickedUp':
      return { params: { orderId: await orderAfter(['confirm'], {}, 'TAKEOUT') } };
    case 'postV1OrdersByOrderIdDispatch':
      return { params: { orderId: await orderAfter(['confirm']) } };
    case 'postV1OrdersByOrderIdTracking':
      return { params: { orderId: await orderAfter(['confirm', 'dispatch']) } };
    case 'postV1OrdersByOrderIdValidateCode':
    case 'postV1LogisticsConfirmationCode': {
      // The published code (1234) is this order's.
      const orderId = await orderAfter(['confirm', 'dispatch'], { deliveryCode: '1234' });
      return { params: { orderId }, bind: { orderId, merchantId: me.merchantId }, headers: signed(id) };
    }
    case 'postV1EventsAcknowledgment': {
      const orderId = await orderAfter([]);
      return { bind: { orderId, id: eventIdOf('CREATED') } };
    }
    case 'postV1LogisticsDeliveryUpdate': {
      const orderId = await orderAfter(['confirm', 'dispatch']);
      const combined = await orderAfter(['confirm', 'dispatch']);
      return {
        bind: { orderId, 'merchant.id': me.merchantId, combinedOrdersIds: combined },
        headers: signed(id),
      };
    }
    case 'putV1MerchantOnboarding':
      // The example's merchantId stands for the token's own merchant.
      return { bind: { merchantId: me.merchantId } };
    case 'postAdminV1OrdersByOrderIdCustomerCancellation':
      return { params: { orderId: await orderAfter([]) } };
    case 'postAdminV1OrdersByOrderIdCancellationDecision':
      return { params: { orderId: await orderAfter(['requestCancellation']) } };
    case 'postAdminV1OrdersByOrderIdWeighingsByWeighingIdDecision': {
      // D42: a weighing out of tolerance waiting for the platform, the merchant asking only meanwhile.
      const orderId = await orderAfter(['confirm']);
      await call('PATCH', `/admin/v1/merchants/${me.merchantId}`, { weighingOutOfTolerance: 'ASK' });
      const asked = await call('POST', `/v1/orders/${orderId}/weighing`, { items: [{ index: 0, quantity: 5 }] }, pos());
      await call('PATCH', `/admin/v1/merchants/${me.merchantId}`, { weighingOutOfTolerance: 'REFUSE' });
      return { params: { orderId, weighingId: (asked.json() as { weighingId: string }).weighingId } };
    }
    case 'postAdminV1OrdersByOrderIdEvents':
      return { params: { orderId: await orderAfter(['confirm', 'dispatch', 'delivered']) } };
    case 'postV1SandboxListenDeliveriesByDeliveryIdAttempts': {
      // A webhook handed to a listener: its delivery id and lease.
      await call('PUT', '/v1/merchantOnboarding', { ordersWebhookURL: 'http://127.0.0.1:9' }, pos());
      await orderAfter([]);
      const listen = await call(
        'POST',
        '/v1/sandbox/listen',
        { forwardTo: 'http://127.0.0.1:9', waitSeconds: 0 },
        pos(),
      );
      const [delivery] = (listen.json() as { deliveries: Array<{ deliveryId: string; leaseToken: string }> })
        .deliveries;
      return { params: { deliveryId: delivery.deliveryId }, bind: { leaseToken: delivery.leaseToken } };
    }
    case 'postV1Homologations':
    case 'postAdminV1MerchantsByMerchantIdIntegrationKeysByKeyIdHomologations': {
      const key = await addIntegrationKey(t.app, me.merchantId);
      return {
        params: { keyId: key.keyId },
        headers: () => (id === 'postV1Homologations' ? bearer(key.token) : adminHeaders),
        after: async () => {
          await t.services.homologation?.stop();
        },
      };
    }
    case 'patchAdminV1OperatorsById':
    case 'postAdminV1OperatorsByIdPassword':
    case 'postAdminV1OperatorsByIdTokens': {
      const operator = await call('POST', '/admin/v1/operators', {
        email: `op-${crypto.randomUUID()}@acougue.example`,
        name: 'Operadora',
        role: 'admin',
      });
      return { params: { id: (operator.json() as { id: string }).id } };
    }
    case 'postAdminV1MeTokens': {
      // "me" is an operator signed in with a personal token.
      const email = `me-${crypto.randomUUID()}@acougue.example`;
      const operator = await call('POST', '/admin/v1/operators', { email, name: 'Eu', role: 'admin' });
      const token = await call('POST', `/admin/v1/operators/${(operator.json() as { id: string }).id}/tokens`, {});
      return { headers: () => bearer((token.json() as { token: string }).token) };
    }
    case 'getV1FinancialStatementsByStatementId':
    case 'getV1FinancialStatementsByStatementIdLines':
    case 'getAdminV1StatementsByStatementId':
    case 'getAdminV1StatementsByStatementIdLines':
    case 'postAdminV1StatementsByStatementIdAdjustments':
      return { params: { statementId: await statementOf(false) } };
    case 'postAdminV1StatementsByStatementIdPaid':
      return { params: { statementId: await statementOf(true) } };
    case 'postAdminV1MerchantsByMerchantIdProducts': {
      const category = await call('POST', `/admin/v1/merchants/${me.merchantId}/categories`, { name: 'Bovinos' });
      return { bind: { categoryId: (category.json() as { id: string }).id } };
    }
    case 'postAdminV1MerchantsByMerchantIdProductsByProductIdCuts': {
      const product = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
      return { params: { productId: product.id } };
    }
    case 'postV1MerchantAvailability':
    case 'postAdminV1MerchantsByMerchantIdAvailability': {
      const product = await createProduct(t.app, me.merchantId, { name: 'Pernil', price: 39.9, unit: 'KG' });
      return { bind: { productId: product.id } };
    }
    case 'postV1MerchantPause':
    case 'postAdminV1MerchantsByMerchantIdPause':
      // The store opens again at once, so the operations after it still take orders.
      return {
        after: async () => {
          await inject('DELETE', '/v1/merchant/pause', pos(), undefined);
        },
      };
    case 'postAdminV1LogisticsApps':
      return { bind: { merchantIds: me.merchantId } };
    case 'patchAdminV1MerchantsByMerchantIdIntegrationKeysByKeyId': {
      const key = await addIntegrationKey(t.app, me.merchantId);
      return { params: { keyId: key.keyId } };
    }
    default:
      return {};
  }
}

function signed(id: string): ((payload: string) => Record<string, string>) | undefined {
  if (!id.startsWith('postV1Logistics')) return undefined;
  return (payload) => ({
    'x-app-id': partner.appId,
    'x-app-merchantid': me.merchantId,
    'x-app-signature': hmacSha256Hex(partner.clientSecret, payload),
  });
}

/** The example with its stand-in ids replaced: `bind` maps a field name (or parent.field) to a real id. */
function bound(value: unknown, bind: Record<string, string>, name = '', parent = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => bound(v, bind, name, parent));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bound(v, bind, k, name)]));
  }
  const real = bind[`${parent}.${name}`] ?? bind[name];
  return real !== undefined && typeof value === 'string' ? real : value;
}

function examplesOf(media: Json): unknown[] {
  if (media.example !== undefined) return [media.example];
  return Object.values((media.examples ?? {}) as Record<string, { value: unknown }>).map((e) => e.value);
}

function schemaOf(media: Json): ValidateFunction {
  return ajv.compile(rewriteRefs(media.schema) as object);
}

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' ? v.replace(/^#\/components/, 'openapi#/components') : rewriteRefs(v),
      ]),
    );
  }
  return node;
}

function urlOf(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'merchantId') return params.merchantId ?? me.merchantId;
    if (params[name] === undefined) throw new Error(`no value for {${name}} of ${path}`);
    return params[name];
  });
}

function encode(mediaType: string, body: unknown): string {
  if (mediaType === 'application/x-www-form-urlencoded') {
    return new URLSearchParams(body as Record<string, string>).toString();
  }
  return JSON.stringify(body);
}

/** The operation with the target's parameters; `mediaType` undefined: no body at all. */
async function send(operation: Operation, mediaType: string | undefined, body: unknown, target: Target) {
  const payload = mediaType === undefined ? '' : encode(mediaType, body);
  const query = target.query ? `?${new URLSearchParams(target.query)}` : '';
  const url = urlOf(operation.path, target.params ?? {}) + query;
  const auth = operation.path.startsWith('/admin/') ? adminHeaders : operation.path.startsWith('/v1/') ? pos() : {};
  const headers: Record<string, string> = { ...auth, ...(target.headers?.(payload) ?? {}) };
  if (mediaType !== undefined) headers['content-type'] = mediaType;
  return inject(operation.method, url, headers, mediaType === undefined ? undefined : payload);
}

/** The world of one test file; `profile` is the merchant key's (D27). */
export async function createContractWorld(profile: 'cleaver' | 'opendelivery' = 'cleaver') {
  t = await createTestApp({ env: UNLIMITED, config: { listenMaxWaitSec: 0 } });
  doc = t.app.swagger() as unknown as Json;
  ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 8 }));
  ajv.addSchema({ $id: 'openapi', components: rewriteRefs(doc.components ?? {}) });
  ops = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({ id: op.operationId as string, method: method.toUpperCase(), path, op });
    }
  }
  me = await createMerchant(t.app, 'Açougue Contrato');
  if (profile !== 'cleaver') {
    await call('PATCH', `/admin/v1/merchants/${me.merchantId}/integrationKeys/${me.keyId}`, { profile });
  }
  partner = await createLogisticsApp(t.app, [me.merchantId]);
  // The catalog of the published upload example, which the intake example orders from.
  const upload = ops.find((o) => o.id === 'putV1MerchantUpdate') as Operation;
  const media = ((upload.op.requestBody as Json).content as Record<string, Json>)['application/json'];
  for (const example of examplesOf(media)) await call('PUT', '/v1/merchantUpdate', example, pos());
  await t.services.catalog.worker.drain();
  return {
    t,
    doc,
    ops,
    me,
    partner,
    targetOf,
    send,
    bound,
    examplesOf,
    schemaOf,
    orderAfter,
    call,
    close: () => t.close(),
  };
}

export type ContractWorld = Awaited<ReturnType<typeof createContractWorld>>;
