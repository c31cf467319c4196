// The console pages that hold at scale, in a real browser against the app on 127.0.0.1: search
// and pages of merchants, a 2,500-product catalog paged on the server, the merchant's charts, the
// time zone picker, and a destructive action confirmed with and without JavaScript.
// Screenshots go to test-artifacts/console/.
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createSimpleOrder } from '../support/orders.js';
import { ADMIN_TOKEN, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { launchBrowser, screenshot, trackForeignRequests } from './browser.js';

let t: TestApp;
let browser: Browser;
let base: string;
let merchantId: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  merchantId = (await createMerchant(t.app, 'Açougue Grande')).merchantId;
  const db = t.database.db;
  await db.query(
    `INSERT INTO products (id, merchant_id, pdv_external_id, name, price, unit, external_code)
     SELECT gen_random_uuid(), $1, 'P' || n, 'Produto ' || lpad(n::text, 5, '0'), 1234.56, 'UN', 'SC-' || n
       FROM generate_series(1, 2500) n`,
    [merchantId],
  );
  const now = Date.now();
  for (let i = 0; i < 20; i++) {
    const at = new Date(now - (i % 7) * 86_400_000);
    const id = newId();
    await db.query(
      `INSERT INTO webhook_deliveries (id, merchant_id, order_id, occurrence_id, event_type, body, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'CREATED', '{}', 'DELIVERED', $5, $5)`,
      [id, merchantId, newId(), newId(), at],
    );
    await db.query(
      'INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, duration_ms, status_code) VALUES ($1, 1, $2, $3, $4)',
      [id, at, 80 + 20 * (i % 5), i % 6 === 0 ? 503 : 200],
    );
    await db.query(
      `INSERT INTO catalog_syncs (id, merchant_id, source, status, received_at) VALUES ($1, $2, 'UPLOAD', $3, $4)`,
      [newId(), merchantId, i % 4 === 0 ? 'FAIL' : 'SUCCESS', at],
    );
  }
  for (let i = 0; i < 3; i++) await createMerchant(t.app, `Casa de Carnes ${i}`);
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function loggedIn(javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled });
  const page = await context.newPage();
  await page.goto(`${base}/console/merchants`);
  await page.getByLabel('Operator token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}/console/merchants`);
  return page;
}

describe('console at scale in a browser', () => {
  it('searches merchants, pages a large catalog, draws the charts, switches the time zone', async () => {
    const page = await loggedIn();
    const foreign = trackForeignRequests(page, base);
    await page.getByLabel('Name, id or POS code').fill('casa de');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('[data-label="Name"]').count()).toBe(3);
    await screenshot(page, '20-merchants-search');

    await page.goto(`${base}/console/merchants/${merchantId}/catalog`);
    await expect.poll(() => page.getByRole('cell', { name: 'R$1,234.56' }).count()).toBe(100);
    await expect.poll(() => page.locator('svg[role="img"]').count()).toBe(1);
    await page.getByRole('link', { name: 'Next page →' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Produto 00101', exact: true }).count()).toBe(1);
    await screenshot(page, '21-catalog-page-2');
    await page.getByLabel('Name, POS id or code').fill('P2024');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'R$1,234.56' }).count()).toBe(1);

    await page.goto(`${base}/console/merchants/${merchantId}`);
    await expect.poll(() => page.locator('svg[role="img"]').count()).toBe(2);
    await expect.poll(() => page.getByText(/Last 14 days: 20 attempts/).count()).toBe(1);
    await screenshot(page, '22-merchant-charts');

    await createSimpleOrder(t.app, merchantId);
    await page.goto(`${base}/console/orders`);
    await expect.poll(() => page.locator('time').first().textContent()).toMatch(/GMT-3$/);
    // The zone picker is in the operator's menu.
    await page.locator('details.menu > summary').click();
    await page.getByLabel('Times in').selectOption('UTC');
    await page.getByRole('button', { name: 'Set' }).click();
    await expect.poll(() => page.locator('time').first().textContent()).toMatch(/UTC$/);
    await page.goto(`${base}/console/orders`);
    await expect.poll(() => page.locator('time').first().textContent()).toMatch(/UTC$/);
    await screenshot(page, '23-orders-utc');
    expect(foreign).toEqual([]);
    await page.context().close();
  });

  it('confirms cancelling an order on a page of its own without JavaScript, and once with it', async () => {
    const plain = await loggedIn(false);
    const order = await createSimpleOrder(t.app, merchantId);
    await plain.goto(`${base}/console/orders/${order.id}`);
    await plain.getByLabel("Platform's reason (optional)").fill('Loja fechada');
    await plain.getByRole('button', { name: 'Cancel as the platform' }).click();
    await expect.poll(() => plain.getByRole('heading', { name: 'Please confirm' }).count()).toBe(1);
    await screenshot(plain, '24-confirm-cancel');
    expect((await t.services.orders.getAnyOrder(order.id)).status).toBe('CREATED');
    await plain.getByRole('button', { name: 'Yes, do it' }).click();
    await expect.poll(async () => (await t.services.orders.getAnyOrder(order.id)).status).toBe('CANCELLED');
    await plain.context().close();

    const scripted = await loggedIn(true);
    const other = await createSimpleOrder(t.app, merchantId);
    await scripted.goto(`${base}/console/orders/${other.id}`);
    const asked: string[] = [];
    scripted.on('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await scripted.getByRole('button', { name: 'Cancel as the platform' }).click();
    await expect.poll(async () => (await t.services.orders.getAnyOrder(other.id)).status).toBe('CANCELLED');
    expect(asked).toEqual(['Cancel this order for the platform? The POS and the customer are told.']);
    await scripted.context().close();
  });
});
