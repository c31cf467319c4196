// A console that holds at scale: lists are keyset pages with search and filters, the catalog page
// pages its products server-side, money reads `R$ 1.234,56`, times are in the operator's zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { type ConsoleSession, login } from './console-session.js';

let t: TestApp;
let s: ConsoleSession;
beforeAll(async () => {
  t = await createTestApp();
  s = await login(t.app);
});
afterAll(() => t.close());

const nextOf = (body: string) => /<a href="([^"]+)" rel="next">/.exec(body)?.[1]?.replace(/&amp;/g, '&');

describe('console lists', () => {
  it('pages merchants 50 at a time and finds one by name, keeping the search in the next link', async () => {
    for (let i = 0; i < 53; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/merchants',
        headers: adminHeaders,
        payload: { name: `Açougue Página ${String(i).padStart(2, '0')}` },
      });
      expect(res.statusCode).toBe(201);
    }
    const first = await s.get('/console/merchants?q=p%C3%A1gina');
    expect(first.statusCode).toBe(200);
    expect(first.body.match(/data-label="Name"/g)).toHaveLength(50);
    const next = nextOf(first.body);
    expect(next).toMatch(/^\/console\/merchants\?q=p%C3%A1gina&cursor=/);
    const second = await s.get(next as string);
    expect(second.body.match(/data-label="Name"/g)).toHaveLength(3);
    expect(second.body).toContain('Last page');
    expect(second.body).toContain('First page');
    const one = await s.get('/console/merchants?q=P%C3%A1gina+07');
    expect(one.body.match(/data-label="Name"/g)).toHaveLength(1);
    const forged = await s.get('/console/merchants?cursor=garbage');
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('cursor is not valid');
    const status = await s.get('/console/merchants?status=OPEN');
    expect(status.statusCode).toBe(400);
    expect(status.body).toContain('“OPEN” is not one of the choices for Status.');
  });

  it('pages and searches a large catalog without rendering it whole', async () => {
    const me = await createMerchant(t.app, 'Catálogo Grande');
    // Set-based, as a POS upload of 2,500 products would leave them.
    await t.database.db.query(
      `INSERT INTO products (id, merchant_id, pdv_external_id, name, price, unit, external_code)
       SELECT gen_random_uuid(), $1, 'P' || n, 'Produto ' || lpad(n::text, 5, '0'), 1234.56, 'UN', 'SC-' || n
         FROM generate_series(1, 2500) n`,
      [me.merchantId],
    );
    const page = await s.get(`/console/merchants/${me.merchantId}/catalog`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('2,500 products in 0 categories');
    expect(page.body.match(/<td data-label="Price" class="num">R\$1,234\.56<\/td>/g)).toHaveLength(100);
    expect(page.body).toContain('Produto 00001');
    expect(page.body).not.toContain('Produto 00101');
    const second = await s.get(nextOf(page.body) as string);
    expect(second.body).toContain('Produto 00101');
    expect(second.body).not.toContain('Produto 00100<');
    const byPos = await s.get(`/console/merchants/${me.merchantId}/catalog?q=P2024`);
    expect(byPos.body.match(/<td data-label="Price" class="num">R\$/g)).toHaveLength(1);
    expect(byPos.body).toContain('Produto 02024');
    const none = await s.get(`/console/merchants/${me.merchantId}/catalog?q=nada`);
    expect(none.body).toContain('No products match.');
  });

  it('searches orders by display id and writes times in the operator zone, Sao Paulo by default', async () => {
    const me = await createMerchant(t.app, 'Casa de Carnes');
    const order = await createSimpleOrder(t.app, me.merchantId);
    const list = await s.get('/console/orders');
    expect(list.body).toMatch(/<time datetime="[^"]+" title="America\/Sao_Paulo">[^<]+GMT-3<\/time>/);
    expect(list.body).toContain('<option selected>America/Sao_Paulo</option>');
    const found = await s.get(`/console/orders?q=${order.id}`);
    expect(found.body.match(/href="\/console\/orders\/[0-9a-f-]{36}"/g)).toEqual([
      `href="/console/orders/${order.id}"`,
    ]);
    const bad = await s.get('/console/orders?merchantId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Choose a merchant from the list.');

    const utc = await s.get('/console/orders?tz=UTC');
    expect(utc.headers['set-cookie']).toMatch(/^cleaver_tz=UTC; Path=\/console/);
    expect(utc.body).toMatch(/<time datetime="[^"]+" title="UTC">[^<]+UTC<\/time>/);
    const remembered = await t.app.inject({
      method: 'GET',
      url: `/console/orders/${order.id}`,
      headers: { cookie: `${s.cookie}; cleaver_tz=America/Manaus` },
    });
    expect(remembered.body).toMatch(/title="America\/Manaus">[^<]+GMT-4<\/time>/);
    const unknown = await s.get('/console/orders?tz=Mars/Olympus');
    expect(unknown.headers['set-cookie']).toBeUndefined();
    expect(unknown.body).toContain('title="America/Sao_Paulo"');
  });

  it('pages webhook deliveries across merchants, 400 for a bad status', async () => {
    const res = await s.get('/console/webhooks?status=FAILED');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('No webhook deliveries match.');
    const bad = await s.get('/console/webhooks?status=LOST');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('“LOST” is not one of the choices for Status.');
  });
});

describe('destructive actions', () => {
  it('asks on a page of its own before cancelling an order, without JavaScript, and keeps the input', async () => {
    const me = await createMerchant(t.app, 'Casa de Carnes');
    const order = await createSimpleOrder(t.app, me.merchantId);
    const asked = await s.post(`/console/orders/${order.id}/events`, {
      eventType: 'CANCELLED',
      reason: 'Loja <fechada>',
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('Cancel this order for the platform?');
    expect(asked.body).toContain('<input type="hidden" name="reason" value="Loja &lt;fechada&gt;">');
    expect(asked.body).toContain('<input type="hidden" name="confirm" value="yes">');
    expect((await t.services.orders.getAnyOrder(order.id)).status).toBe('CREATED');
    const audited = await t.database.db.query(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'order.platformEvent'",
    );
    expect(audited.rows[0].n).toBe(0);

    const done = await s.post(`/console/orders/${order.id}/events`, {
      eventType: 'CANCELLED',
      reason: 'Loja <fechada>',
      confirm: 'yes',
    });
    expect(done.statusCode).toBe(303);
    expect((await t.services.orders.getAnyOrder(order.id)).status).toBe('CANCELLED');
  });

  it('asks before every final step: concluding an undelivered order, accepting a cancellation, removing a cut', async () => {
    const me = await createMerchant(t.app, 'Casa de Carnes Final');
    const order = await createSimpleOrder(t.app, me.merchantId);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(me.token),
      payload: { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-1' },
    });
    expect(confirmed.statusCode).toBe(202);
    // The page's button asks in the browser too.
    const shown = await s.get(`/console/orders/${order.id}`);
    expect(shown.body).toContain(
      '<form method="post" action="/console/orders/' +
        `${order.id}/events" class="inline-form" data-confirm="Conclude this order? CONCLUDED is final: it can no longer be delivered, cancelled or changed.">`,
    );
    // Without JavaScript: a page of its own, and the order as it was.
    const asked = await s.post(`/console/orders/${order.id}/events`, { eventType: 'CONCLUDED' });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('Conclude this order? CONCLUDED is final');
    expect(asked.body).toContain('<input type="hidden" name="eventType" value="CONCLUDED">');
    expect((await t.services.orders.getAnyOrder(order.id)).status).toBe('CONFIRMED');
    const done = await s.post(`/console/orders/${order.id}/events`, { eventType: 'CONCLUDED', confirm: 'yes' });
    expect(done.statusCode).toBe(303);
    expect((await t.services.orders.getAnyOrder(order.id)).status).toBe('CONCLUDED');

    // Accepting the POS's cancellation request ends the order: asked; denying it is not.
    const accept = await s.post(`/console/orders/${order.id}/cancellationDecision`, { decision: 'accept' });
    expect(accept.statusCode).toBe(200);
    expect(accept.body).toContain('Accept the POS&#39;s cancellation? The order is cancelled, and that is final.');
    const deny = await s.post(`/console/orders/${order.id}/cancellationDecision`, { decision: 'deny' });
    expect(deny.body).not.toContain('Please confirm');
    const cut = await s.post(`/console/merchants/${me.merchantId}/products/${order.id}/cuts/remove`, { cutId: 'x' });
    expect(cut.statusCode).toBe(200);
    expect(cut.body).toContain('Remove this cut? Customers can no longer choose it.');
  });
});

describe('charts', () => {
  it('draws webhook success and latency per day, and sync outcomes, as inline SVG without styles', async () => {
    const me = await createMerchant(t.app, 'Gráficos');
    const now = new Date();
    for (let i = 0; i < 6; i++) {
      const [id, orderId, occurrenceId] = [newId(), newId(), newId()];
      await t.database.db.query(
        `INSERT INTO webhook_deliveries (id, merchant_id, order_id, occurrence_id, event_type, body, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'CREATED', '{}', 'DELIVERED', $5, $5)`,
        [id, me.merchantId, orderId, occurrenceId, now],
      );
      await t.database.db.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, duration_ms, status_code) VALUES ($1, 1, $2, $3, $4)`,
        [id, now, 100 * (i + 1), i < 4 ? 200 : 503],
      );
      await t.database.db.query(
        `INSERT INTO catalog_syncs (id, merchant_id, source, status, received_at) VALUES ($1, $2, 'UPLOAD', $3, $4)`,
        [newId(), me.merchantId, i < 5 ? 'SUCCESS' : 'FAIL', now],
      );
    }
    const page = await s.get(`/console/merchants/${me.merchantId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Last 14 days: 6 attempts, 66.7% answered 2xx.');
    expect(page.body).toContain('aria-label="Webhook attempts per day: 4 answered 2xx, 2 failed over 14 days"');
    expect(page.body).toMatch(/<title>\d{4}-\d{2}-\d{2}: 350 ms median<\/title>/);
    const catalogPage = await s.get(`/console/merchants/${me.merchantId}/catalog`);
    expect(catalogPage.body).toContain(
      'aria-label="Catalog syncs per day, last 30 days: 5 Success, 1 Failed, 0 Processing',
    );
    for (const body of [page.body, catalogPage.body]) expect(body).not.toMatch(/<svg[^>]*style=|<rect[^>]*style=/);
  });
});

describe('form errors', () => {
  it('keep what was typed, mark the field the error names, and never echo a secret', async () => {
    const me = await createMerchant(t.app, 'Erros');
    const bad = await s.post(`/console/merchants/${me.merchantId}/catalog/products`, {
      name: 'Coxa <de> frango',
      price: '19,9x',
      unit: 'KG',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('The price must be an amount such as 12.90 or 12,90.');
    expect(bad.body).toContain('<input id="retry-name" name="name" value="Coxa &lt;de&gt; frango">');
    expect(bad.body).toContain(
      '<input id="retry-price" name="price" value="19,9x" aria-invalid="true" aria-describedby="retry-error" autofocus>',
    );
    expect(bad.body).toContain(`action="/console/merchants/${me.merchantId}/catalog/products"`);
    const again = await s.post(`/console/merchants/${me.merchantId}/catalog/products`, {
      name: 'Coxa',
      price: '19,90',
      unit: 'KG',
    });
    expect(again.statusCode).toBe(303);
    const password = await s.post('/console/account/password', { current: 'x', password: 'short' });
    expect(password.body).not.toContain('value="short"');
  });
});
