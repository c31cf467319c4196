// The console in a real browser against the real app listening on 127.0.0.1: log in, create a
// merchant and an integration key, place a sandbox order and watch its events arrive live,
// answer as the platform, check the phone layout. Screenshots go to test-artifacts/console/.
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantBody, sampleCatalog } from '../support/catalog.js';
import { ADMIN_TOKEN, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { launchBrowser, screenshot, trackForeignRequests } from './browser.js';

let t: TestApp;
let browser: Browser;
let base: string;

beforeAll(async () => {
  // One webhook attempt, then FAILED: the console's retry is the only way it goes again.
  t = await createTestApp({ env: { CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0' } });
  await t.services.webhooks.start();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.services.webhooks.stop();
  await t?.close();
});

async function loggedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/console/merchants`);
  await page.getByLabel('Operator token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}/console/merchants`);
  return page;
}

describe('console in a browser', () => {
  it('logs in, creates a merchant and key, places an order and watches it live', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const foreign = trackForeignRequests(page, base);
    const errors: string[] = [];
    page.on('console', (m) => {
      // The wrong-token login answers 401 on purpose; anything else is a defect.
      if (m.type() === 'error' && !m.text().includes('status of 401')) errors.push(m.text());
    });

    // Wrong token first: the error is shown on the login page.
    await page.goto(`${base}/console`);
    await expect.poll(() => page.url()).toContain('/console/login');
    await page.getByLabel('Operator token').fill('wrong-token');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid operator token');
    await screenshot(page, '01-login-error');

    await page.getByLabel('Operator token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/console/merchants`);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'cleaver_console')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    // Create a merchant, then an integration key: the secret is on screen once.
    await page.getByLabel('Name', { exact: true }).fill('Açougue Boi Bravo');
    await page.getByRole('button', { name: 'Create merchant' }).click();
    await page.waitForURL(/\/console\/merchants\/[0-9a-f-]{36}\?created=1$/);
    const merchantId = /merchants\/([0-9a-f-]{36})/.exec(page.url())?.[1] as string;
    await page.getByLabel('Key name (optional)').fill('PDV balcão');
    await page.getByRole('button', { name: 'Create integration key' }).click();
    const secret = (await page.locator('#client-secret').textContent())?.trim() as string;
    expect(secret.length).toBeGreaterThan(20);
    await screenshot(page, '02-key-created');

    // The POS side takes a token with it (proves the secret shown is the real one).
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { client_id: merchantId, client_secret: secret, grant_type: 'client_credentials' },
    });
    expect(token.statusCode).toBe(200);
    const posToken = token.json().access_token as string;

    // The POS uploads a catalog with one broken offer: the catalog page says what was discarded.
    const spec = sampleCatalog();
    spec.itemOffers.push({ id: 'O9', itemId: 'NOPE', price: { value: 10 }, status: 'AVAILABLE' });
    const upload = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantUpdate',
      headers: bearer(posToken),
      payload: merchantBody(spec),
    });
    expect(upload.statusCode).toBe(204);
    await t.services.catalog.worker.drain();

    // Place an order, open it and watch the POS's confirmation arrive without reloading.
    const orderId = await placeOrder(page, merchantId);
    await expect.poll(() => page.locator('#timeline').textContent()).toContain('CREATED');
    const confirm = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${orderId}/confirm`,
      headers: bearer(posToken),
      payload: { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-77' },
    });
    expect(confirm.statusCode).toBe(202);
    await expect.poll(() => page.locator('#timeline').textContent(), { timeout: 10_000 }).toContain('CONFIRMED');
    await screenshot(page, '05-order-live');

    // The customer asks to cancel; the event shows up in the timeline.
    await page.getByRole('button', { name: 'Request cancellation as the customer' }).click();
    await page.waitForURL(/done=/);
    await expect.poll(() => page.locator('#timeline').textContent()).toContain('ORDER_CANCELLATION_REQUEST');

    // And it is in the orders list.
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'Açougue Boi Bravo' }).count()).toBe(1);
    await screenshot(page, '06-orders');

    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone screen: the merchants page has no horizontal overflow', async () => {
    await t.services.merchants.createMerchant({ name: 'Casa de Carnes Nossa Senhora Aparecida do Norte Ltda' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await loggedIn(context);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, '07-phone-merchants');
    await context.close();
  });

  it('finds a failing webhook by merchant and status and retries it from the console', async () => {
    const receiver = await startWebhookReceiver(() => ({ status: 500, body: 'receiver exploded' }));
    try {
      const me = await createMerchant(t.app, 'Açougue Webhook Quebrado');
      const onboard = await t.app.inject({
        method: 'PUT',
        url: '/v1/merchantOnboarding',
        headers: bearer(me.token),
        payload: { ordersWebhookURL: receiver.url },
      });
      expect(onboard.statusCode).toBe(200);
      const product = await t.services.catalog.createHandMadeProduct(me.merchantId, {
        name: 'Costela',
        price: 39.9,
        unit: 'KG',
      });
      await t.services.orders.createOrder(me.merchantId, {
        type: 'TAKEOUT',
        items: [{ productId: product.id, quantity: 2 }],
      });
      // The worker tries once (schedule "0") and gives up on the 500.
      await receiver.waitFor((r) => r.length >= 1);
      await expect
        .poll(async () => (await t.services.webhooks.listMerchantDeliveries(me.merchantId, {})).items[0]?.status)
        .toBe('FAILED');

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await loggedIn(context);
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.getByLabel('Merchant', { exact: true }).selectOption(me.merchantId);
      await page.getByLabel('Status').selectOption('FAILED');
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => page.locator('.delivery-card').count()).toBe(1);
      await expect.poll(() => page.getByRole('cell', { name: '500', exact: true }).count()).toBe(1);
      await screenshot(page, '08-webhook-failed');

      await page
        .getByRole('button', { name: /Retry now/ })
        .first()
        .click();
      await page.waitForURL(/done=/);
      await receiver.waitFor((r) => r.length >= 2);
      await expect
        .poll(async () => (await t.services.webhooks.listMerchantDeliveries(me.merchantId, {})).items[0]?.attemptCount)
        .toBe(2);
      await page.reload();
      await expect.poll(() => page.getByRole('cell', { name: '500', exact: true }).count()).toBe(2);
      await screenshot(page, '09-webhook-retried');
      await context.close();
    } finally {
      await receiver.close();
    }
  });
});

/** Adds a product by hand on the catalog page, then places a sandbox order; returns its id. */
async function placeOrder(page: Page, merchantId: string): Promise<string> {
  await page.goto(`${base}/console/merchants/${merchantId}`);
  await page.getByRole('link', { name: 'Catalog and sync history' }).click();
  await expect.poll(() => page.getByText('matches no item').count()).toBeGreaterThan(0);
  await page.getByLabel('Product name').fill('Fraldinha');
  await page.getByLabel('Price (BRL)').fill('59,90');
  await page.getByLabel('Unit', { exact: true }).selectOption('KG');
  await page.getByRole('button', { name: 'Add product' }).click();
  await expect.poll(() => page.getByRole('cell', { name: 'R$59.90' }).count()).toBe(1);
  await page.getByText('1 discarded object').click();
  await screenshot(page, '03-catalog');

  await page.getByRole('link', { name: 'Sandbox', exact: true }).click();
  await page.getByLabel('Merchant').selectOption(merchantId);
  await page.getByRole('button', { name: 'Show catalog' }).click();
  await page.getByLabel('Quantity of Fraldinha (KG)').fill('1.5');
  await page.getByLabel('Quantity of Picanha (KG)').fill('0.8');
  await page.getByLabel('Customer name').fill('Maria da Silva');
  await screenshot(page, '04-sandbox');
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.waitForURL(/\/console\/orders\/[0-9a-f-]{36}\?done=placed$/);
  return /orders\/([0-9a-f-]{36})/.exec(page.url())?.[1] as string;
}
