// Every console page in a real browser (Debian's chromium through playwright-core), at a desk
// (1366×900) and on a phone (390×844), in English and in Portuguese (chosen by the browser's
// language): no page scrolls sideways (document.scrollWidth <= innerWidth), nothing on it sticks
// out of the screen (the keys table and the order totals on a phone were the cases reported),
// the navigation keeps to one row at 1366 px, a table header never breaks inside a word, a
// login error sits in the form that was used, the orders filter picks a merchant by name, and
// the operator switches language from the menu. Screenshots go to test-artifacts/console/.
// What this proves does not depend on the kind of database.
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../operators-access/support.js';
import { createOrder, createProduct } from '../support/orders.js';
import { ADMIN_TOKEN, adminHeaders, bearer, type TestApp } from '../support/test-app.js';
import { cleanups, setup } from '../support/webhook-kit.js';
import { launchBrowser, screenshot, trackForeignRequests } from './browser.js';

let t: TestApp;
let browser: Browser;
let base: string;
const ids: Record<string, string> = {};

const SIZES = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;
const LANGS = ['en', 'pt-BR'] as const;

beforeAll(async () => {
  // A merchant whose webhook fails (the banner, the notices), with long names where layouts break.
  const s = await setup({}, '0,3600');
  t = s.t;
  s.receiver.setHandler(() => ({ status: 500, body: 'receiver exploded with a rather long explanation' }));
  const rename = await t.app.inject({
    method: 'PATCH',
    url: `/admin/v1/merchants/${s.merchant.merchantId}`,
    headers: adminHeaders,
    payload: { name: 'Casa de Carnes Nossa Senhora Aparecida do Norte Ltda' },
  });
  expect(rename.statusCode, rename.body).toBe(200);
  ids.merchant = s.merchant.merchantId;
  for (const name of ['PDV balcão principal da loja 1', 'Integração do sistema de gestão Açougue+ versão 7']) {
    const key = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${ids.merchant}/integrationKeys`,
      headers: adminHeaders,
      payload: { name, profile: 'opendelivery' },
    });
    expect(key.statusCode).toBe(201);
  }
  const products = [];
  for (const [name, price, unit] of [
    ['Picanha maturada a seco por 45 dias, peça inteira', 189.9, 'KG'],
    ['Linguiça toscana artesanal', 32.5, 'KG'],
    ['Carvão vegetal 5 kg', 27.7, 'UN'],
  ] as const) {
    products.push(await createProduct(t.app, ids.merchant, { name, price, unit }));
  }
  const order = await createOrder(t.app, ids.merchant, {
    type: 'TAKEOUT',
    items: [
      { productId: products[0].id, quantity: 2.345 },
      { productId: products[1].id, quantity: 1.5, specialInstructions: 'Cortar em gomos pequenos, por favor' },
      { productId: products[2].id, quantity: 3 },
    ],
  });
  ids.order = order.id;
  const confirmed = await t.app.inject({
    method: 'POST',
    url: `/v1/orders/${order.id}/confirm`,
    headers: bearer(s.merchant.token),
    payload: { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-2024-000123' },
  });
  expect(confirmed.statusCode).toBe(202);
  // A refused request with a long body, for the key's request log.
  const refused = await t.app.inject({
    method: 'PUT',
    url: '/v1/merchantOnboarding',
    headers: bearer(s.merchant.token),
    payload: {
      ordersWebhookURL: `https://pos.example.com/${'integracao-do-sistema-de-gestao/'.repeat(8)}`,
      getMerchantURL: { baseURL: 'not a url', apiKey: 'a-secret' },
    },
  });
  expect(refused.statusCode).toBe(400);
  ids.key = s.merchant.keyId;
  await s.webhooks.drain({ maxWaitMs: 2_000 });
  const run = await t.app.inject({
    method: 'POST',
    url: `/admin/v1/merchants/${ids.merchant}/integrationKeys/${s.merchant.keyId}/homologations`,
    headers: adminHeaders,
    payload: { timings: { durationMs: 300, waitForPosMs: 1, scenarioSpacingMs: 20 } },
  });
  expect(run.statusCode).toBe(201);
  ids.run = run.json().id;
  ids.operator = (await createOperator(t.app, 'support', 'Maria Aparecida dos Santos Oliveira')).id;
  // A second merchant, healthy, for the orders filter.
  const other = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/merchants',
    headers: adminHeaders,
    payload: { name: 'Açougue do Zé' },
  });
  ids.other = other.json().id;

  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  while (cleanups.length) await cleanups.pop()?.();
});

/** Logged in with the bootstrap token, in a browser whose language is `lang`. */
async function session(size: (typeof SIZES)[number], lang: (typeof LANGS)[number]): Promise<BrowserContext> {
  const phone = size.width < 600;
  const context = await browser.newContext({ viewport: size, locale: lang, isMobile: phone, hasTouch: phone });
  const page = await context.newPage();
  await page.goto(`${base}/console/login`);
  await page.locator('#token').fill(ADMIN_TOKEN);
  await page.locator('#token').press('Enter');
  await page.waitForURL(`${base}/console/merchants`);
  await page.close();
  return context;
}

// The checks run in the page. They are JavaScript source (the project's type checking has no
// DOM library): playwright evaluates a string as an expression in the page.

/**
 * Nothing scrolls sideways, and nothing visible in the page sticks out of the screen. A phone
 * (isMobile) widens its layout to fit a page that overflows, and innerWidth with it: the width
 * the test set is the one to hold to.
 */
const FITS = (width: number) => `((width) => {
  const problems = [];
  if (window.innerWidth !== width) problems.push('innerWidth ' + window.innerWidth + ' is not ' + width);
  if (document.documentElement.scrollWidth > window.innerWidth) {
    problems.push('document.scrollWidth ' + document.documentElement.scrollWidth + ' > ' + width);
  }
  if (document.body.scrollWidth > width) problems.push('body.scrollWidth ' + document.body.scrollWidth + ' > ' + width);
  for (const el of document.querySelectorAll('main *, header *, .attention *')) {
    if (el.closest('pre, svg, .visually-hidden, details:not([open]) > :not(summary), .menu-panel')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > width + 0.5 || r.left < -0.5) {
      problems.push(el.tagName.toLowerCase() + '.' + el.className + ' [' + Math.round(r.left) + ', ' +
        Math.round(r.right) + ']: ' + (el.textContent || '').trim().slice(0, 40));
    }
  }
  return problems.slice(0, 10);
})(${width})`;

/** Header words broken across lines (each word of a header must sit on one line). */
const BROKEN_HEADERS = `(() => {
  const broken = [];
  for (const th of document.querySelectorAll('thead th')) {
    // A phone's card tables hide their header row (table.cards): nothing to read there.
    if (th.closest('.visually-hidden') || getComputedStyle(th.closest('thead')).position === 'absolute') continue;
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.visually-hidden')) continue;
      for (const m of (node.textContent || '').matchAll(/S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
})()`;

/** How tall the row of the navigation and the operator's menu is. */
const NAV_HEIGHT = `(() => {
  const boxes = [...document.querySelectorAll('.nav .sections li, .nav .brand, .nav .menu > summary')].map((e) =>
    e.getBoundingClientRect(),
  );
  return Math.max(...boxes.map((r) => r.bottom)) - Math.min(...boxes.map((r) => r.top));
})()`;

const fits = (page: Page) => page.evaluate(FITS(page.viewportSize()?.width ?? 0)) as Promise<string[]>;
const brokenHeaders = (page: Page) => page.evaluate(BROKEN_HEADERS) as Promise<string[]>;

const PAGES: Array<[string, () => string]> = [
  ['merchants', () => '/console/merchants'],
  ['merchant', () => `/console/merchants/${ids.merchant}`],
  ['catalog', () => `/console/merchants/${ids.merchant}/catalog`],
  ['slots', () => `/console/merchants/${ids.merchant}/slots`],
  ['orders', () => '/console/orders'],
  ['order', () => `/console/orders/${ids.order}`],
  ['webhooks', () => '/console/webhooks'],
  ['webhooks-merchant', () => `/console/webhooks?merchantId=${ids.merchant}`],
  ['notices', () => '/console/notices'],
  ['homologations', () => '/console/homologations'],
  ['homologation-run', () => `/console/homologations/${ids.run}`],
  ['sandbox', () => `/console/sandbox?merchantId=${ids.merchant}`],
  ['operators', () => '/console/operators'],
  ['operator', () => `/console/operators/${ids.operator}`],
  ['audit', () => '/console/audit'],
  ['account', () => '/console/account'],
  ['not-found', () => '/console/nowhere'],
  ['key', () => `/console/merchants/${ids.merchant}/keys/${ids.key}`],
  ['key-failed', () => `/console/merchants/${ids.merchant}/keys/${ids.key}?failed=1`],
];

describe('every console page at a desk and on a phone, in both languages', () => {
  for (const lang of LANGS) {
    for (const size of SIZES) {
      it(`${lang} at ${size.width}×${size.height}: no sideways scroll, nothing off screen, headers whole`, {
        timeout: 300_000,
      }, async () => {
        const context = await session(size, lang);
        const page = await context.newPage();
        const foreign = trackForeignRequests(page, base);
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        for (const [i, [name, url]] of PAGES.entries()) {
          const res = await page.goto(`${base}${url()}`);
          expect(res?.status(), name).toBe(name === 'not-found' ? 404 : 200);
          expect(await page.getAttribute('html', 'lang'), name).toBe(lang);
          // A failed request's body, unfolded: a long line of JSON still wraps.
          if (name === 'key-failed') {
            await page.locator('table.requests details').evaluateAll((ds) => {
              for (const d of ds) d.setAttribute('open', '');
            });
          }
          expect(await fits(page), `${name} ${lang} ${size.width}`).toEqual([]);
          expect(await brokenHeaders(page), `${name} ${lang} ${size.width}`).toEqual([]);
          if (size.width === 1366) {
            // The navigation and the operator's menu on one row.
            const rows = (await page.evaluate(NAV_HEIGHT)) as number;
            expect(rows, `${name}: navigation height`).toBeLessThan(48);
          }
          await screenshot(page, `30-${String(i).padStart(2, '0')}-${name}-${lang}-${size.width}`);
        }
        // The order's totals on a phone: every amount whole and on screen.
        await page.goto(`${base}/console/orders/${ids.order}`);
        const totals = await page
          .locator('.totals dd')
          .evaluateAll((dds) => dds.map((d) => ({ right: d.getBoundingClientRect().right, text: d.textContent })));
        expect(totals).toHaveLength(4);
        for (const d of totals) expect(d.right).toBeLessThanOrEqual(size.width);
        // Money always with two decimals, as the language writes it.
        for (const d of totals) expect(d.text).toMatch(lang === 'en' ? /^R\$\d[\d,]*\.\d{2}$/ : /^R\$ \d[\d.]*,\d{2}$/);
        expect(foreign).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      });
    }
  }
});

describe('in a browser', () => {
  it('shows a login error inside the form that was used, in the browser’s language', async () => {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size, locale: 'pt-BR' });
      const page = await context.newPage();
      await page.goto(`${base}/console/login`);
      await page.locator('#token').fill('not-the-token');
      await page.locator('#token').press('Enter');
      const alert = page.locator('form:has(#token) [role="alert"]');
      await expect.poll(() => alert.textContent()).toBe('Token de operador inválido');
      expect(await page.locator('form:has(#email) [role="alert"]').count()).toBe(0);
      expect(await fits(page)).toEqual([]);
      await screenshot(page, `31-login-error-token-pt-BR-${size.width}`);
      await page.locator('#email').fill('ninguem@cleaver.test');
      await page.locator('#password').fill('uma senha qualquer');
      await page.locator('#password').press('Enter');
      await expect
        .poll(() => page.locator('form:has(#email) [role="alert"]').textContent())
        .toBe('E-mail, senha ou código de uso único inválidos');
      expect(await page.locator('form:has(#token) [role="alert"]').count()).toBe(0);
      await screenshot(page, `32-login-error-password-pt-BR-${size.width}`);
      await context.close();
    }
  });

  it('filters orders by a merchant picked by name, and switches language from the menu', async () => {
    const context = await session(SIZES[1], 'en');
    const page = await context.newPage();
    await page.goto(`${base}/console/orders`);
    await page.getByLabel('Merchant', { exact: true }).selectOption({ label: 'Açougue do Zé' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(new RegExp(`merchantId=${ids.other}`));
    expect(await page.getByText('No orders match.').count()).toBe(1);
    await page
      .getByLabel('Merchant', { exact: true })
      .selectOption({ label: 'Casa de Carnes Nossa Senhora Aparecida do Norte Ltda' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('table.orders tbody tr').count()).toBeGreaterThan(0);
    const merchants = await page.locator('table.orders tbody td[data-label="Merchant"]').allTextContents();
    expect(new Set(merchants)).toEqual(new Set(['Casa de Carnes Nossa Senhora Aparecida do Norte Ltda']));
    await screenshot(page, '33-orders-by-merchant-en-390');

    // The menu holds the language switch; the choice stays for the next pages.
    await page.locator('details.menu > summary').click();
    await screenshot(page, '34-menu-open-en-390');
    expect(await fits(page)).toEqual([]);
    await page.getByRole('link', { name: 'Português' }).click();
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('pt-BR');
    expect(page.url()).toContain(`merchantId=${ids.merchant}`);
    await page.getByRole('link', { name: 'Lojas', exact: true }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Lojas');
    await context.close();
  });
});
