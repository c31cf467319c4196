// Console forms are checked against TypeBox schemas, the operator API's own where the form posts
// what an /admin/v1 route takes (style.md#habits): a bad field is the page's 400 naming it, in English and
// in pt-BR, never a 500, and the field is marked on the form shown again when it has a label.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/console/html.js';
import { en, type Messages } from '../../src/console/messages/en.js';
import { ptBR } from '../../src/console/messages/pt-BR.js';
import { TOKEN_MAX_DAYS } from '../../src/modules/operators/index.js';
import { createOperator } from '../operators-access/support.js';
import { createProduct } from '../support/orders.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { type ConsoleSession, login, loginAs } from './console-session.js';

let t: TestApp;
let admin: ConsoleSession;
let operator: ConsoleSession;
let merchantId: string;
let productId: string;
let operatorId: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  const account = await createOperator(t.app, 'admin');
  operatorId = account.id;
  operator = await loginAs(t.app, account.email, account.password);
  merchantId = (await createMerchant(t.app, 'Açougue Formulários')).merchantId;
  productId = (await createProduct(t.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' })).id;
});
afterAll(() => t.close());

const long = (n: number) => 'x'.repeat(n);

/** [form, url, fields, what the page says, the field marked (when it has a label)]. */
const REFUSALS: Array<[string, () => string, Record<string, string>, (m: Messages) => string, string?]> = [
  [
    'new merchant: name too long',
    () => '/console/merchants',
    { name: long(201) },
    (m) => m.errors.tooLong(m.fields.name, 200),
    'name',
  ],
  [
    'new merchant: unknown status',
    () => '/console/merchants',
    { name: 'Açougue', status: 'LOST' },
    (m) => m.errors.notAChoice(m.fields.status, 'LOST'),
    'status',
  ],
  [
    'merchant status: missing',
    () => `/console/merchants/${merchantId}/status`,
    {},
    (m) => m.errors.required(m.fields.status),
  ],
  [
    'new key: unknown profile',
    () => `/console/merchants/${merchantId}/keys`,
    { profile: 'soap' },
    (m) => m.errors.notAChoice(m.fields.profile, 'soap'),
    'profile',
  ],
  [
    'new operator: email too long',
    () => '/console/operators',
    { email: `${long(400)}@x.test`, name: 'Ana', role: 'viewer' },
    (m) => m.errors.known.badEmail,
    'email',
  ],
  [
    'new operator: unknown role',
    () => '/console/operators',
    { email: 'ana@x.test', name: 'Ana', role: 'owner' },
    (m) => m.errors.notAChoice(m.fields.role, 'owner'),
    'role',
  ],
  [
    'operator change: state neither true nor false',
    () => `/console/operators/${operatorId}`,
    { disabled: 'maybe' },
    (m) => m.errors.notAChoice(m.fields.disabled, 'maybe'),
    'disabled',
  ],
  [
    'new token: days not a number',
    () => '/console/account/tokens',
    { days: 'ten' },
    (m) => m.errors.wholeNumber(m.fields.days, 1, TOKEN_MAX_DAYS),
    'days',
  ],
  [
    'new token: days past the limit',
    () => '/console/account/tokens',
    { days: String(TOKEN_MAX_DAYS + 1) },
    (m) => m.errors.wholeNumber(m.fields.days, 1, TOKEN_MAX_DAYS),
    'days',
  ],
  [
    'new cut: name too long',
    () => `/console/merchants/${merchantId}/products/${productId}/cuts`,
    { name: long(201) },
    (m) => m.errors.tooLong(m.butchery.cutName, 200),
  ],
  [
    'new product: unit neither KG nor UN',
    () => `/console/merchants/${merchantId}/catalog/products`,
    { name: 'Alcatra', price: '10', unit: 'LB' },
    (m) => m.errors.notAChoice(m.fields.unit, 'LB'),
    'unit',
  ],
  [
    'new category: name too long',
    () => `/console/merchants/${merchantId}/catalog/categories`,
    { name: long(201) },
    (m) => m.errors.tooLong(m.fields.name, 200),
    'name',
  ],
  [
    'cancellation by the customer: reason too long',
    () => `/console/orders/${randomUUID()}/customerCancellation`,
    { reason: long(1001) },
    (m) => m.errors.tooLong(m.fields.reason, 1000),
    'reason',
  ],
  [
    'cancellation decision: neither accept nor deny',
    () => `/console/orders/${randomUUID()}/cancellationDecision`,
    { decision: 'maybe' },
    (m) => m.orders.unknownAction,
  ],
  [
    'sandbox order: not a merchant',
    () => '/console/sandbox/orders',
    { merchantId: 'nope', type: 'DELIVERY', customerName: 'Ana' },
    (m) => m.errors.notAMerchant,
  ],
];

describe('console forms', () => {
  it.each(REFUSALS)('%s: 400 naming the field, in English and pt-BR', async (_name, url, fields, says, marked) => {
    const session = url().startsWith('/console/account') ? operator : admin;
    const target = url();
    for (const [lang, messages] of [
      ['en', en],
      ['pt-BR', ptBR],
    ] as const) {
      const res = await session.post(target, fields, { 'accept-language': lang });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain(messages.errors.headings['400']);
      expect(res.body).toContain(escapeHtml(says(messages)));
      if (marked) expect(res.body).toContain(`id="retry-${marked}" name="${marked}"`);
      if (marked) expect(res.body).toMatch(new RegExp(`id="retry-${marked}"[^>]*aria-invalid="true"`));
    }
  });

  it('every field far too long is a 400 page, never a 500', async () => {
    const huge = long(5000);
    const forms: Array<[string, string[]]> = [
      ['/console/merchants', ['name', 'status']],
      [`/console/merchants/${merchantId}/keys`, ['name', 'profile']],
      ['/console/operators', ['email', 'name', 'role', 'password']],
      [`/console/operators/${operatorId}/password`, ['password']],
      ['/console/account/password', ['currentPassword', 'newPassword']],
      ['/console/account/tokens', ['name', 'role', 'days']],
      [`/console/merchants/${merchantId}/products/${productId}/cuts`, ['name', 'spice', 'id']],
      [`/console/merchants/${merchantId}/catalog/products`, ['name', 'price', 'unit', 'categoryId']],
      [`/console/orders/${randomUUID()}/events`, ['eventType', 'pickupArea', 'reason']],
      ['/console/sandbox/orders', ['merchantId', 'type', 'customerName']],
    ];
    for (const [url, names] of forms) {
      const session = url.startsWith('/console/account') ? operator : admin;
      const res = await session.post(url, Object.fromEntries(names.map((n) => [n, huge])));
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.body).toContain(en.errors.headings['400']);
    }
  });
});
