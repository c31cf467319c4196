// The order page offers only the platform's actions the order's state allows (platformActions in
// modules/orders, the rules the service applies), and an action refused anyway (a stale page)
// comes back as the order page with a plain message: never a raw error with internal field names.
// Proven for every status an order can reach, of both types, with and without an open
// cancellation request: the forms on the page are exactly the actions the service then accepts.
import type { FastifyInstance } from 'fastify';
import { describe, expect } from 'vitest';
import { platformActions } from '../../src/modules/orders/index.js';
import { appTest } from '../support/fixtures.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, bearer, type MerchantCredentials } from '../support/test-app.js';
import { type ConsoleSession, login } from './console-session.js';

const it = appTest();

type Step =
  | 'confirm'
  | 'readyForPickup'
  | 'dispatch'
  | 'delivered'
  | 'conclude'
  | 'cancel'
  | 'customerAsks'
  | 'posAsks';

/** The states an order can reach, as the steps that lead there (POS, platform, customer). */
const STATES: Array<{ name: string; type: 'DELIVERY' | 'TAKEOUT'; steps: Step[] }> = [];
for (const type of ['DELIVERY', 'TAKEOUT'] as const) {
  const paths: Array<[string, Step[]]> = [
    ['CREATED', []],
    ['CONFIRMED', ['confirm']],
    ['READY_FOR_PICKUP', ['confirm', 'readyForPickup']],
    ...(type === 'DELIVERY'
      ? ([
          ['DISPATCHED', ['confirm', 'dispatch']],
          ['DELIVERED', ['confirm', 'dispatch', 'delivered']],
        ] as Array<[string, Step[]]>)
      : []),
    ['CONCLUDED', ['confirm', 'conclude']],
    ['CANCELLED', ['cancel']],
    ['CREATED + customer request', ['customerAsks']],
    ['CONFIRMED + POS request', ['confirm', 'posAsks']],
    ['CONCLUDED + POS request', ['confirm', 'posAsks', 'conclude']],
  ];
  for (const [name, steps] of paths) STATES.push({ name: `${type} ${name}`, type, steps });
}

/** Each platform action as the console posts it. */
const ACTIONS = {
  customerCancellation: { path: 'customerCancellation', form: { reason: 'Mudei de ideia' } },
  acceptCancellation: { path: 'cancellationDecision', form: { decision: 'accept', confirm: 'yes' } },
  denyCancellation: { path: 'cancellationDecision', form: { decision: 'deny' } },
  conclude: { path: 'events', form: { eventType: 'CONCLUDED', confirm: 'yes' } },
  pickupArea: { path: 'events', form: { eventType: 'PICKUP_AREA_ASSIGNED', pickupArea: 'Balcão 2' } },
  cancel: { path: 'events', form: { eventType: 'CANCELLED', confirm: 'yes' } },
} as const;
type Action = keyof typeof ACTIONS;

async function orderIn(
  app: FastifyInstance,
  me: MerchantCredentials & { productId: string },
  type: string,
  steps: Step[],
): Promise<string> {
  const order = await createOrder(app, me.merchantId, { type, items: [{ productId: me.productId, quantity: 1 }] });
  const post = async (url: string, payload: unknown, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
    if (res.statusCode !== 202) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  };
  const pos = bearer(me.token);
  const admin = adminHeaders;
  for (const step of steps) {
    const base = `/v1/orders/${order.id}`;
    if (step === 'confirm')
      await post(`${base}/confirm`, { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-9' }, pos);
    if (step === 'readyForPickup') await post(`${base}/readyForPickup`, {}, pos);
    if (step === 'dispatch') await post(`${base}/dispatch`, {}, pos);
    if (step === 'delivered') await post(`${base}/delivered`, {}, pos);
    if (step === 'posAsks')
      await post(
        `${base}/requestCancellation`,
        { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'MANUAL' },
        pos,
      );
    const platform = `/admin/v1/orders/${order.id}`;
    if (step === 'conclude') await post(`${platform}/events`, { eventType: 'CONCLUDED' }, admin);
    if (step === 'cancel') await post(`${platform}/events`, { eventType: 'CANCELLED' }, admin);
    if (step === 'customerAsks') await post(`${platform}/customerCancellation`, {}, admin);
  }
  return order.id;
}

/** The actions the order page offers, read from its forms. */
function offered(body: string): Action[] {
  const section = body.slice(body.indexOf('id="actions"'), body.indexOf('id="tl-h"'));
  const found: Action[] = [];
  if (section.includes('/customerCancellation"')) found.push('customerCancellation');
  if (section.includes('name="decision" value="accept"')) found.push('acceptCancellation');
  if (section.includes('name="decision" value="deny"')) found.push('denyCancellation');
  if (section.includes('name="eventType" value="CONCLUDED"')) found.push('conclude');
  if (section.includes('name="eventType" value="PICKUP_AREA_ASSIGNED"')) found.push('pickupArea');
  if (section.includes('name="eventType" value="CANCELLED"')) found.push('cancel');
  return found;
}

async function attempt(s: ConsoleSession, orderId: string, action: Action) {
  const { path, form } = ACTIONS[action];
  return s.post(`/console/orders/${orderId}/${path}`, form);
}

describe('the order page offers what the order allows', () => {
  const withProduct = async (t: { app: FastifyInstance }, me: MerchantCredentials) => ({
    ...me,
    productId: (await createProduct(t.app, me.merchantId, { price: 10, unit: 'UN' })).id,
  });

  it('for every reachable state of both types: each offered action succeeds, each other one is refused', {
    timeout: 600_000,
  }, async ({ t, me: merchant }) => {
    const me = await withProduct(t, merchant);
    const s = await login(t.app);
    for (const state of STATES) {
      const probe = await orderIn(t.app, me, state.type, state.steps);
      const row = await t.services.orders.getAnyOrder(probe);
      const page = await s.get(`/console/orders/${probe}`);
      const shown = offered(page.body);
      // A pickup area is offered on takeout orders only (a presentation choice of the console).
      const expected = platformActions({
        status: row.status,
        type: row.type,
        customerCancellationOpen: row.customer_cancellation !== null,
        posCancellationOpen: row.pos_cancellation !== null,
      }).filter((a) => a !== 'pickupArea' || row.type === 'TAKEOUT');
      expect(shown, state.name).toEqual(expected);
      if (shown.length === 0) expect(page.body, state.name).toContain('nothing more can happen to it');

      for (const action of Object.keys(ACTIONS) as Action[]) {
        if (action === 'pickupArea' && row.type !== 'TAKEOUT') continue;
        const orderId = await orderIn(t.app, me, state.type, state.steps);
        const res = await attempt(s, orderId, action);
        const label = `${state.name}: ${action}`;
        if (shown.includes(action)) {
          expect(res.statusCode, `${label} ${res.body.slice(0, 300)}`).toBe(303);
          expect(res.headers.location, label).toBe(`/console/orders/${orderId}?done=${action}`);
        } else {
          expect(res.statusCode, label).toBe(400);
          // The order page again, saying why in plain words, with the actions that do apply.
          expect(res.headers['content-type'], label).toBe('text/html; charset=utf-8');
          expect(res.body, label).toMatch(
            /<div class="alert" role="alert"><p>“[^”]+” cannot be done to this order now \(it is [A-Z][a-z ]+\)\./,
          );
          expect(res.body, label).toContain('id="actions"');
          expect(offered(res.body), label).toEqual(shown);
          // Never an internal field name or the service's raw title as the message.
          for (const internal of ['eventType', 'customerCancellation', 'cancellationDecision', 'Order is ']) {
            expect(res.body.replace(/<form[\s\S]*?<\/form>/g, ''), `${label}: ${internal}`).not.toContain(internal);
          }
        }
      }
    }
  });

  it('a stale page: the action applied meanwhile comes back as a plain message, audited with the service title', async ({
    t,
    me: merchant,
  }) => {
    const me = await withProduct(t, merchant);
    const s = await login(t.app);
    const orderId = await orderIn(t.app, me, 'DELIVERY', ['confirm', 'dispatch', 'delivered']);
    // The page (opened earlier) offered Cancel; the courier delivered meanwhile.
    const res = await attempt(s, orderId, 'cancel');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(
      '<div class="alert" role="alert"><p>“Cancel as the platform” cannot be done to this order now (it is Delivered). The actions below are the ones it allows.</p></div>',
    );
    expect(offered(res.body)).toEqual(['conclude']);
    const { rows } = await t.database.db.query<{ status_code: number; reason: string }>(
      "SELECT status_code, reason FROM audit_log WHERE action = 'order.platformEvent' ORDER BY id DESC LIMIT 1",
    );
    expect(rows[0]).toEqual({ status_code: 400, reason: 'Order is DELIVERED' });

    // The same in Portuguese.
    const pt = await t.app.inject({
      method: 'POST',
      url: `/console/orders/${orderId}/events`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `${s.cookie}; cleaver_lang=pt-BR`,
      },
      payload: new URLSearchParams({ _csrf: s.csrf, eventType: 'CANCELLED', confirm: 'yes' }).toString(),
    });
    expect(pt.statusCode).toBe(400);
    expect(pt.body).toContain(
      '“Cancelar pela plataforma” não pode ser feito neste pedido agora (ele está Entregue). As ações abaixo são as que ele permite.',
    );
  });
});
