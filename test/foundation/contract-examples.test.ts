// The published contract and the service agree (D34, D35; architecture.md#contract):
// - every request body example in /openapi.json is accepted by the service, sent as published
//   (ids that stand for records, such as an order's, are bound to records of the same kind that
//   exist), and is valid against its own published schema;
// - every request body that the document does not close (no additionalProperties false) accepts
//   an unknown field beside the example, and the two that do close it refuse one (D34);
// - every rule the service enforces on a request body is a constraint of the published schema:
//   a body breaking it is refused by the service (400 naming the field) and by the schema.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacSha256Hex } from '../../src/lib/crypto.js';
import { eventIdOf } from '../../src/modules/events/index.js';
import { createLogisticsApp, type LogisticsApp } from '../support/logistics.js';
import { createOrder, createSimpleOrder } from '../support/orders.js';
import {
  addIntegrationKey,
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
type Json = Record<string, unknown>;

/** The id the document's examples use for a record of any kind (openapi-docs/complete.ts). */
const SAMPLE_ID = '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9';
const UNLIMITED = {
  CLEAVER_RATE_LIMIT_AUTH: '10000000',
  CLEAVER_RATE_LIMIT_READ: '10000000',
  CLEAVER_RATE_LIMIT_WRITE: '10000000',
};

interface Operation {
  id: string;
  method: string;
  path: string;
  op: Json;
}

/** What an example is sent against: path parameters, ids bound by field name, and headers. */
interface Target {
  params?: Record<string, string>;
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
const ops: Operation[] = [];

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
    ? await createOrder(t.app, me.merchantId, { type, items: [{ pdvId: 'PICANHA', quantity: 1 }], ...extra })
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
      return { params: { orderId: await orderAfter(['customerCancellation']) } };
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
    case 'postAdminV1MerchantsByMerchantIdProducts': {
      const category = await call('POST', `/admin/v1/merchants/${me.merchantId}/categories`, { name: 'Bovinos' });
      return { bind: { categoryId: (category.json() as { id: string }).id } };
    }
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

async function send(operation: Operation, mediaType: string, body: unknown, target: Target) {
  const payload = encode(mediaType, body);
  const url = urlOf(operation.path, target.params ?? {});
  const auth = operation.path.startsWith('/admin/') ? adminHeaders : operation.path.startsWith('/v1/') ? pos() : {};
  const headers = { ...auth, ...(target.headers?.(payload) ?? {}), 'content-type': mediaType };
  return inject(operation.method, url, headers, payload);
}

beforeAll(async () => {
  t = await createTestApp({ env: UNLIMITED, config: { listenMaxWaitSec: 0 } });
  doc = t.app.swagger() as unknown as Json;
  ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 8 }));
  ajv.addSchema({ $id: 'openapi', components: rewriteRefs(doc.components ?? {}) });
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      if (op.requestBody) ops.push({ id: op.operationId as string, method: method.toUpperCase(), path, op });
    }
  }
  me = await createMerchant(t.app, 'Açougue Contrato');
  partner = await createLogisticsApp(t.app, [me.merchantId]);
  // The catalog of the published upload example, which the intake example orders from.
  const upload = ops.find((o) => o.id === 'putV1MerchantUpdate') as Operation;
  const media = ((upload.op.requestBody as Json).content as Record<string, Json>)['application/json'];
  for (const example of examplesOf(media)) await call('PUT', '/v1/merchantUpdate', example, pos());
  await t.services.catalog.worker.drain();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('every published request example', () => {
  it('is valid against its own published schema', () => {
    const problems: string[] = [];
    for (const operation of ops) {
      for (const [mediaType, media] of Object.entries(
        (operation.op.requestBody as Json).content as Record<string, Json>,
      )) {
        const validate = schemaOf(media);
        for (const example of examplesOf(media)) {
          if (!validate(example)) {
            problems.push(`${operation.id} ${mediaType}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(ops.length).toBeGreaterThan(30);
  });

  it('is accepted by the service; an unknown field beside it too, unless the schema closes the body (D34)', async () => {
    const refused: string[] = [];
    for (const operation of ops) {
      for (const [mediaType, media] of Object.entries(
        (operation.op.requestBody as Json).content as Record<string, Json>,
      )) {
        for (const example of examplesOf(media)) {
          const target = await targetOf(operation.id);
          const schema = media.schema as Json;
          const closed = schema.additionalProperties === false || Array.isArray(schema.oneOf);
          const plain = example !== null && typeof example === 'object' && !Array.isArray(example);
          // D34: the catalog update refuses an unknown top-level key; everything else ignores it.
          const body = plain && !closed ? { ...(example as Json), zzNotAField: true } : example;
          const res = await send(operation, mediaType, bound(body, target.bind ?? {}), target);
          await target.after?.();
          if (res.statusCode >= 300) refused.push(`${operation.id} ${mediaType} → ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(refused).toEqual([]);
  }, 240_000);
});

/** A body breaking one rule: the service's 400 title, and the published schema refuses it too. */
interface RuleCase {
  operationId: string;
  rule: string;
  /** The body, or a function making it once the world exists. */
  body: unknown;
  title: string;
  mediaType?: string;
}

const intake = (change: Json) => ({
  type: 'DELIVERY',
  items: [{ pdvId: 'PICANHA', quantity: 1 }],
  ...change,
});

const RULES: RuleCase[] = [
  {
    operationId: 'postOauthToken',
    rule: 'grant_type is required',
    body: { client_id: 'x', client_secret: 'y' },
    title: 'grant_type is required',
  },
  {
    operationId: 'postOauthToken',
    rule: 'grant_type is client_credentials',
    body: { client_id: 'x', client_secret: 'y', grant_type: 'password' },
    title: 'grant_type must be client_credentials',
  },
  {
    operationId: 'postOauthToken',
    rule: 'a form body is read like JSON',
    mediaType: 'application/x-www-form-urlencoded',
    body: { client_id: 'x', client_secret: 'y' },
    title: 'grant_type is required',
  },
  {
    operationId: 'postOauthRevoke',
    rule: 'token is required',
    body: () => ({ client_id: me.merchantId, client_secret: me.clientSecret }),
    title: 'token is required',
  },
  {
    operationId: 'postAdminV1Operators',
    rule: 'email is an email address',
    body: { email: 'not-an-email', name: 'N', role: 'viewer' },
    title: 'email must be an email address',
  },
  {
    operationId: 'postAdminV1Operators',
    rule: 'password has at least 12 characters',
    body: { email: 'curta@acougue.example', name: 'N', role: 'viewer', password: 'short' },
    title: 'password must be at least 12 characters long',
  },
  {
    operationId: 'postAdminV1MerchantsByMerchantIdOrders',
    rule: 'an item names productId or pdvId',
    body: intake({ items: [{ quantity: 1 }] }),
    title: 'items[0].productId or items[0].pdvId is required',
  },
  {
    operationId: 'postAdminV1MerchantsByMerchantIdOrders',
    rule: 'money has at most 4 decimal places',
    body: intake({
      items: [{ pdvId: 'PICANHA', quantity: 1, options: [{ name: 'Osso', quantity: 1, unitPrice: 1.00001 }] }],
    }),
    title: 'items[0].options[0].unitPrice has more than 4 decimal places',
  },
  {
    operationId: 'postAdminV1MerchantsByMerchantIdOrders',
    rule: 'a TAKEOUT order has no delivery',
    body: intake({ type: 'TAKEOUT', delivery: {} }),
    title: 'delivery applies to DELIVERY orders only',
  },
  {
    operationId: 'postAdminV1MerchantsByMerchantIdOrders',
    rule: 'a DELIVERY order has no takeout',
    body: intake({ takeout: { mode: 'DEFAULT' } }),
    title: 'takeout applies to TAKEOUT orders only',
  },
  {
    operationId: 'putV1MerchantUpdate',
    rule: 'no top-level key but the four (D34)',
    body: { entityType: 'ITEM', updateObjects: [] },
    title: 'updateObjects is not a field of merchantUpdate: did you mean updatedObjects?',
  },
  {
    operationId: 'postV1MerchantUpdate',
    rule: 'no top-level key but the four (D34)',
    body: { merchantStatus: 'AVAILABLE', updateObjects: [] },
    title: 'updateObjects is not a field of merchantUpdate: did you mean updatedObjects?',
  },
  {
    operationId: 'postV1Homologations',
    rule: 'a timing is at most 600000 ms',
    body: { timings: { durationMs: 600_001 } },
    title: 'timings.durationMs must be <= 600000',
  },
];

describe('every rule the service enforces on a body is in the published schema', () => {
  it.each(RULES.map((r) => [`${r.operationId}: ${r.rule}`, r] as const))('%s', async (_name, rule) => {
    const operation = ops.find((o) => o.id === rule.operationId) as Operation;
    const mediaType = rule.mediaType ?? 'application/json';
    const media = ((operation.op.requestBody as Json).content as Record<string, Json>)[mediaType];
    const body = typeof rule.body === 'function' ? rule.body() : rule.body;
    expect(schemaOf(media)(body), 'the published schema refuses it').toBe(false);
    const target = rule.operationId.startsWith('postOauth') ? {} : await targetOf(rule.operationId);
    const res: LightMyRequestResponse = await send(operation, mediaType, body, target);
    await target.after?.();
    // Status and body; OAuth errors add RFC 6749's `error` beside {title, status}.
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 400,
      body: { title: rule.title, status: 400 },
    });
  });
});
