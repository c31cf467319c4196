// The published contract and the service agree (D34, D35; architecture.md#contract):
// - every request body example in /openapi.json is accepted by the service, sent as published
//   (ids that stand for records, such as an order's, are bound to records of the same kind that
//   exist: test/support/contract-world.ts), and is valid against its own published schema;
// - every request body that the document does not close (no additionalProperties false) accepts
//   an unknown field beside the example, and the two that do close it refuse one (D34);
// - every rule the service enforces on a request body is a constraint of the published schema:
//   a body breaking it is refused by the service (400 naming the field) and by the schema.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractWorld, createContractWorld, type Json, type Operation } from '../support/contract-world.js';

let w: ContractWorld;
let ops: Operation[];

beforeAll(async () => {
  w = await createContractWorld();
  ops = w.ops.filter((o) => o.op.requestBody);
}, 120_000);

afterAll(async () => {
  await w?.close();
});

describe('every published request example', () => {
  it('is valid against its own published schema', () => {
    const problems: string[] = [];
    for (const operation of ops) {
      for (const [mediaType, media] of Object.entries(
        (operation.op.requestBody as Json).content as Record<string, Json>,
      )) {
        const validate = w.schemaOf(media);
        for (const example of w.examplesOf(media)) {
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
        for (const example of w.examplesOf(media)) {
          const target = await w.targetOf(operation.id);
          const schema = media.schema as Json;
          const closed = schema.additionalProperties === false || Array.isArray(schema.oneOf);
          const plain = example !== null && typeof example === 'object' && !Array.isArray(example);
          // D34: the catalog update refuses an unknown top-level key; everything else ignores it.
          const body = plain && !closed ? { ...(example as Json), zzNotAField: true } : example;
          const res = await w.send(operation, mediaType, w.bound(body, target.bind ?? {}), target);
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
  items: [{ pdvId: 'picanha', quantity: 1 }],
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
    body: () => ({ client_id: w.me.merchantId, client_secret: w.me.clientSecret }),
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
      items: [{ pdvId: 'picanha', quantity: 1, options: [{ name: 'Osso', quantity: 1, unitPrice: 1.00001 }] }],
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
    expect(w.schemaOf(media)(body), 'the published schema refuses it').toBe(false);
    const target = rule.operationId.startsWith('postOauth') ? {} : await w.targetOf(rule.operationId);
    const res: LightMyRequestResponse = await w.send(operation, mediaType, body, target);
    await target.after?.();
    // Status and body; OAuth errors add RFC 6749's `error` beside {title, status}.
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({
      status: 400,
      body: { title: rule.title, status: 400 },
    });
  });
});
