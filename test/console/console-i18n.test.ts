// The console in Portuguese and English (src/console/i18n.ts): the two catalogs have the same
// keys (the type checker says so too), the language follows the operator's choice (a cookie set
// by the switch) or else Accept-Language, money is always two decimals in the language's way,
// and every page rendered in Portuguese has no English left in it: each text an operator reads
// (text, labels, aria-labels, placeholders, confirmations) that is the same in both renderings
// must be data (names, ids, codes), never an untranslated string.
import { describe, expect, it } from 'vitest';
import { money, negotiateLang, number, percent, quantity } from '../../src/console/i18n.js';
import { en } from '../../src/console/messages/en.js';
import { ptBR } from '../../src/console/messages/pt-BR.js';
import { SCENARIOS } from '../../src/modules/sandbox/index.js';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, bearer } from '../support/test-app.js';
import { closeAfterEach, setup } from '../support/webhook-kit.js';
import { type ConsoleSession, login } from './console-session.js';

closeAfterEach();

/** Every key path of a catalog, with the kind of value (functions by their arity). */
function shape(value: unknown, prefix = ''): string[] {
  if (typeof value === 'function') return [`${prefix}()${value.length}`];
  if (typeof value === 'string') return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => shape(v, prefix ? `${prefix}.${k}` : k));
}

describe('catalogs', () => {
  it('have the same keys, each a string or a function of the same arity in both', () => {
    expect(shape(ptBR).sort()).toEqual(shape(en).sort());
  });

  it('leave no Portuguese string equal to its English one unless it is the same word in both', () => {
    const same: string[] = [];
    const walk = (a: unknown, b: unknown, path: string) => {
      if (typeof a === 'string' && a === b) same.push(path);
      else if (a && typeof a === 'object')
        for (const k of Object.keys(a)) walk((a as never)[k], (b as never)[k], `${path}.${k}`);
    };
    walk(en, ptBR, '');
    // Words Portuguese borrows as they are (or proper names, and one-letter-different pairs).
    expect(same.sort()).toEqual(
      [
        '.sections.webhooks',
        '.sections.sandbox',
        '.merchants.webhook',
        '.merchants.id',
        '.webhooks.endpoint',
        '.common.links',
        '.account.enrolLink',
        '.account.token',
        '.audit.token',
        '.orders.item',
        '.orders.total',
        '.orders.app',
        '.orders.timelineKinds.webhook',
        '.operators.tokenId',
        '.audit.channels.api',
        '.audit.channels.console',
        '.audit.targets.tokenId',
      ].sort(),
    );
  });
});

describe('language of a request', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['pt-BR', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['pt-PT,en;q=0.8', 'pt-BR'],
    ['en-US,en;q=0.9,pt-BR;q=0.8', 'en'],
    ['de-DE,pt-BR;q=0.7,en;q=0.5', 'pt-BR'],
    ['fr, de', 'en'],
    ['en;q=0.2, pt;q=0.9', 'pt-BR'],
    ['pt;q=0, en', 'en'],
  ])('Accept-Language %j → %s', (header, lang) => {
    expect(negotiateLang(header)).toBe(lang);
  });

  it('formats money with two decimals, numbers and quantities in each language', () => {
    expect(money(82.7, 'pt-BR')).toBe('R$ 82,70');
    expect(money('82.7', 'en')).toBe('R$82.70');
    expect(money(1234.5, 'pt-BR')).toBe('R$ 1.234,50');
    expect(money('1234.5', 'en')).toBe('R$1,234.50');
    expect(money(0, 'pt-BR')).toBe('R$ 0,00');
    expect(number(12345, 'pt-BR')).toBe('12.345');
    expect(number(12345, 'en')).toBe('12,345');
    expect(quantity(1.25, 'KG', 'pt-BR')).toBe('1,25 KG');
    expect(quantity('0.940', 'KG', 'en')).toBe('0.94 KG');
    expect(percent(2, 3, 'pt-BR')).toBe('66,7%');
    expect(percent(2, 3, 'en')).toBe('66.7%');
  });
});

/**
 * What an operator reads on a page: text nodes and the attributes read aloud or shown. Data the
 * services write in English (API titles, a homologation report's criteria, an endpoint's last
 * error) is marked `lang="en"` on the page, and left out here.
 */
function readable(body: string): string[] {
  const stripped = body
    .replace(/<(script|style|code|time|q|pre|title)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<((?!html\b)\w+)\b[^>]*\slang="en"[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<option\b[^>]*>[^<]*<\/option>/g, (o) => (/America\/|UTC/.test(o) ? ' ' : o));
  const out: string[] = [];
  for (const m of stripped.matchAll(/\s(aria-label|placeholder|data-confirm|data-label|data-msg-[a-z]+)="([^"]*)"/g)) {
    out.push(m[2]);
  }
  for (const m of stripped.replace(/<[^>]+>/g, '\n').split('\n')) {
    const s = m.trim();
    if (s) out.push(s);
  }
  return out.map((s) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
  );
}

/** Words the same in both languages, and what is data, not the console's words. */
const SAME_IN_BOTH =
  /\b(Cleaver|sandbox|production|Webhooks?|webhook|Sandbox|Endpoint|endpoint|Id|Links?|Token|token|Item|Total|app|HTTP|ms|KG|UN|cleaver|opendelivery|English|Português|API|console|client_id|client_secret|webhook-id|PDV|POS|R\$|UTC|GMT|BRT|x)\b/g;

function untranslated(en: string[], pt: string[], data: string[]): string[] {
  const english = new Set(en);
  return pt.filter((s) => {
    if (!english.has(s)) return false;
    let rest = s;
    for (const d of data) rest = rest.split(d).join(' ');
    rest = rest
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ' ')
      .replace(/\b[A-Z][A-Z0-9_]+(\.[A-Z0-9_]+)*\b/g, ' ') // codes: CREATED, ORDER_CANCELLATION_REQUEST
      .replace(/\b[a-z][A-Za-z]*\.[a-z][A-Za-z]*\b/g, ' ') // actions and kinds: integrationKey.create, webhook.failing
      .replace(SAME_IN_BOTH, ' ');
    return /[A-Za-z]{3,}/.test(rest);
  });
}

async function both(s: ConsoleSession, url: string, method: 'GET' | 'POST' = 'GET', form: Record<string, string> = {}) {
  const get = (lang: string) =>
    method === 'GET'
      ? s.get(url, { cookie: `cleaver_lang=${lang}` })
      : s.post(url, form, { cookie: `cleaver_lang=${lang}` });
  const [a, b] = await Promise.all([get('en'), get('pt-BR')]);
  return { en: a, pt: b };
}

describe('every page in Portuguese', () => {
  it('has nothing left in English, and the language is chosen, remembered and announced', {
    timeout: 300_000,
  }, async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,3600');
    const m = await t.services.merchants.requireMerchant(merchant.merchantId);
    receiver.setHandler(() => ({ status: 500, body: 'boom' }));
    const order = await createSimpleOrder(t.app, merchant.merchantId, 'TAKEOUT');
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(merchant.token),
      payload: { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-1' },
    });
    expect(confirmed.statusCode).toBe(202);
    await webhooks.drain({ maxWaitMs: 2_000 });
    const run = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/integrationKeys/${merchant.keyId}/homologations`,
      headers: adminHeaders,
      payload: { timings: { durationMs: 300, waitForPosMs: 1, scenarioSpacingMs: 20 } },
    });
    expect(run.statusCode).toBe(201);
    const op = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/operators',
      headers: adminHeaders,
      payload: { email: 'ana@cleaver.test', name: 'Ana Souza', role: 'support' },
    });
    expect(op.statusCode).toBe(201);
    const s = await login(t.app);
    const keyName = (await t.services.auth.listIntegrationKeys(merchant.merchantId))[0].name;
    const data = [
      m.name,
      'Picanha',
      'Ana Souza',
      'ana@cleaver.test',
      'bootstrap-token',
      'boom',
      'Cliente Sandbox',
      keyName,
    ];
    const customer = (await t.services.orders.getAnyOrder(order.id)).document.customer;
    data.push(customer.name, customer.phone.number, 'Balcão 2');
    // The homologation run's scenario orders, listed on the orders page once they exist (how many
    // depends on the run's pace, so all of their customers count as data).
    data.push(...SCENARIOS.map((scenario) => scenario.order.customerName));
    const runId = run.json().id as string;
    // A product with a cut and spice (D37), for its page.
    const product = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/products`,
      headers: adminHeaders,
      payload: { name: 'Maminha', price: 59.9, unit: 'KG' },
    });
    expect(product.statusCode).toBe(201);
    const productId = product.json().id as string;
    const cut = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/products/${productId}/cuts`,
      headers: adminHeaders,
      payload: { id: 'bife', name: 'Bife', spice: { id: 'alho', name: 'Alho' } },
    });
    expect(cut.statusCode).toBe(201);
    data.push('Maminha', 'Bife', 'Alho');
    // Paused with counted stock (D43), for the catalog page's availability column.
    const paused = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/availability`,
      headers: adminHeaders,
      payload: {
        items: [
          {
            productId,
            available: false,
            reason: 'QUALITY',
            until: new Date(Date.now() + 3_600_000).toISOString(),
            stock: { quantity: 4.5 },
          },
        ],
      },
    });
    expect(paused.statusCode, paused.body).toBe(200);

    // A concluded order, counted in the merchant's statement (D45), for the statements' pages.
    const concluded = await createSimpleOrder(t.app, merchant.merchantId, 'TAKEOUT');
    for (const [url, payload, headers] of [
      [
        `/v1/orders/${concluded.id}/confirm`,
        { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-2' },
        bearer(merchant.token),
      ],
      [`/admin/v1/orders/${concluded.id}/events`, { eventType: 'CONCLUDED' }, adminHeaders],
    ] as const) {
      expect((await t.app.inject({ method: 'POST', url, payload, headers })).statusCode).toBe(202);
    }
    const [statement] = (await t.services.statements.list({ merchantId: merchant.merchantId })).items;

    const pages: Array<[string, 'GET' | 'POST', Record<string, string>?]> = [
      [`/console/merchants/${merchant.merchantId}/statements`, 'GET'],
      [`/console/statements/${statement.id}`, 'GET'],
      [`/console/statements/${statement.id}/paid`, 'POST', { paidOn: '2026-03-06', reference: 'PIX-1' }],
      ['/console/merchants', 'GET'],
      [`/console/merchants/${merchant.merchantId}`, 'GET'],
      [`/console/merchants/${merchant.merchantId}/keys/${merchant.keyId}`, 'GET'],
      [`/console/merchants/${merchant.merchantId}/keys/${merchant.keyId}?failed=1`, 'GET'],
      [`/console/merchants/${merchant.merchantId}/catalog`, 'GET'],
      [`/console/merchants/${merchant.merchantId}/products/${productId}`, 'GET'],
      [`/console/merchants/${merchant.merchantId}/slots`, 'GET'],
      [`/console/merchants/${merchant.merchantId}/slots?days=99`, 'GET'],
      [`/console/merchants/${merchant.merchantId}/products/${productId}/stock`, 'POST', { quantity: 'x' }],
      ['/console/orders', 'GET'],
      [`/console/orders/${order.id}`, 'GET'],
      [`/console/orders/${order.id}/timeline`, 'GET'],
      ['/console/webhooks', 'GET'],
      [`/console/webhooks?merchantId=${merchant.merchantId}`, 'GET'],
      ['/console/notices', 'GET'],
      ['/console/homologations', 'GET'],
      [`/console/homologations/${runId}`, 'GET'],
      [`/console/sandbox?merchantId=${merchant.merchantId}`, 'GET'],
      ['/console/operators', 'GET'],
      [`/console/operators/${op.json().id}`, 'GET'],
      ['/console/audit', 'GET'],
      ['/console/account', 'GET'],
      ['/console/nowhere', 'GET'],
      [`/console/merchants/${merchant.merchantId}/keys`, 'POST', { name: 'PDV novo' }],
      [`/console/orders/${order.id}/events`, 'POST', { eventType: 'CANCELLED' }],
      [
        `/console/merchants/${merchant.merchantId}/catalog/products`,
        'POST',
        { name: 'Coxa', price: '1,2,3', unit: 'KG' },
      ],
      [
        `/console/orders/${order.id}/events`,
        'POST',
        { eventType: 'PICKUP_AREA_ASSIGNED', pickupArea: 'x'.repeat(300) },
      ],
      ['/console/account/password', 'POST', { currentPassword: 'x', newPassword: 'short' }],
    ];
    for (const [url, method, form] of pages) {
      const { en: a, pt: b } = await both(s, url, method, form);
      expect(b.statusCode, url).toBe(a.statusCode);
      expect(b.headers['content-language'], url).toBe('pt-BR');
      if (!url.endsWith('/timeline')) {
        expect(b.body, url).toContain('<html lang="pt-BR">');
        expect(a.body, url).toContain('<html lang="en">');
      }
      data.push('PDV novo', 'Coxa', '1,2,3');
      expect(readable(a.body).length, url).toBeGreaterThan(url.endsWith('/timeline') ? 3 : 15);
      expect(untranslated(readable(a.body), readable(b.body), data), url).toEqual([]);
    }

    // Without a session: the login page, its refusal and the 404 of an asset.
    const loginPt = await t.app.inject({ url: '/console/login', headers: { 'accept-language': 'pt-BR' } });
    const loginEn = await t.app.inject({ url: '/console/login', headers: { 'accept-language': 'en-US' } });
    expect(loginPt.body).toContain('<label for="token">Token de operador</label>');
    expect(untranslated(readable(loginEn.body), readable(loginPt.body), [])).toEqual([]);

    // The switch: a link on every page to the other language, which is then remembered.
    const page = await s.get(`/console/orders/${order.id}`);
    expect(page.body).toContain(
      `<a href="/console/language?lang=pt-BR&amp;next=%2Fconsole%2Forders%2F${order.id}" lang="pt-BR" hreflang="pt-BR">Português</a>`,
    );
    const switched = await s.get(
      `/console/language?lang=pt-BR&next=${encodeURIComponent(`/console/orders/${order.id}`)}`,
    );
    expect(switched.statusCode).toBe(303);
    expect(switched.headers.location).toBe(`/console/orders/${order.id}`);
    expect(switched.headers['set-cookie']).toBe('cleaver_lang=pt-BR; Path=/console; Max-Age=31536000; SameSite=Lax');
    // The choice beats Accept-Language; an unknown language or a next outside the console is refused.
    const chosen = await t.app.inject({
      url: '/console/merchants',
      headers: { cookie: `${s.cookie}; cleaver_lang=pt-BR`, 'accept-language': 'en-US' },
    });
    expect(chosen.body).toContain('<h1>Lojas</h1>');
    expect((await s.get('/console/language?lang=fr&next=/console/orders')).statusCode).toBe(404);
    expect((await s.get('/console/language?lang=en&next=https://evil.example/')).headers.location).toBe(
      '/console/merchants',
    );
    // Money in Portuguese on the order page; the API's error titles stay in English.
    const pt = await s.get(`/console/orders/${order.id}`, { cookie: 'cleaver_lang=pt-BR' });
    expect(pt.body).toContain('R$ 112,38');
    const api = await t.app.inject({
      url: '/admin/v1/merchants/0190a2c4-0000-7000-8000-000000000001',
      headers: { ...adminHeaders, 'accept-language': 'pt-BR' },
    });
    expect(api.json()).toEqual({ title: 'Merchant not found', status: 404 });
    // A form refused in Portuguese shows its fields by their Portuguese names.
    const refused = await s.post(
      `/console/merchants/${merchant.merchantId}/catalog/products`,
      { name: 'Coxa', price: 'abc', unit: 'KG' },
      { cookie: 'cleaver_lang=pt-BR' },
    );
    expect(refused.body).toContain('<label for="retry-price">Preço (R$)</label>');
    expect(refused.body).toContain('O preço deve ser um valor como 12,90 ou 12.90.');
  });
});
