// Operators in a real browser (Debian's chromium through playwright-core) against the real app on
// 127.0.0.1: the first admin logs in with email and password, creates a viewer on the Operators
// page; the viewer sees role-limited pages (no create forms, no order actions, no delivery
// code, 403 when posting anyway); the admin reads and filters the audit page. Screenshots go to
// test-artifacts/console/.
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, PASSWORD, type TestOperator } from '../operators-access/support.js';
import { createSimpleOrder } from '../support/orders.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { launchBrowser, screenshot, trackForeignRequests } from './browser.js';

let t: TestApp;
let browser: Browser;
let base: string;
let admin: TestOperator;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  admin = await createOperator(t.app, 'admin', 'Ana Admin');
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${base}/console/merchants`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console/merchants`);
}

describe('operators in a browser', () => {
  it('admin signs in, creates a viewer; the viewer gets role-limited pages; the audit page shows both', async () => {
    const m = await createMerchant(t.app, 'Açougue Boi Bravo');
    const order = await createSimpleOrder(t.app, m.merchantId);

    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await adminContext.newPage();
    const foreign = trackForeignRequests(page, base);

    // A wrong password first: the error is on the login page, the email kept.
    await page.goto(`${base}/console/merchants`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill('not my password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email, password or one-time code');
    await screenshot(page, '10-operator-login-error');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console/merchants`);
    await expect.poll(() => page.locator('.menu .who').textContent()).toContain(admin.email);

    // Operators page: create a viewer with an initial password.
    await page.getByRole('link', { name: 'Operators', exact: true }).click();
    await page.getByLabel('Email').fill('vera@cleaver.test');
    await page.getByLabel('Full name').fill('Vera Viewer');
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByLabel('Initial password (12+ characters)').fill('vera passphrase 2026');
    await page.getByRole('button', { name: 'Create operator' }).click();
    await page.waitForURL(/\/console\/operators\/[0-9a-f-]{36}\?done=created$/);
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Operator created.');
    await screenshot(page, '11-operator-created');
    await page.getByRole('link', { name: 'Operators', exact: true }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'vera@cleaver.test' }).count()).toBe(1);
    await screenshot(page, '12-operators');

    // The viewer, in another browser context.
    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const vpage = await viewerContext.newPage();
    await signIn(vpage, 'vera@cleaver.test', 'vera passphrase 2026');
    await expect.poll(() => vpage.locator('.menu > summary').textContent()).toContain('viewer');
    expect(await vpage.getByRole('button', { name: 'Create merchant' }).count()).toBe(0);
    await screenshot(vpage, '13-viewer-merchants');
    await vpage.getByRole('link', { name: 'Açougue Boi Bravo' }).click();
    expect(await vpage.getByRole('button', { name: 'Create integration key' }).count()).toBe(0);
    expect(await vpage.getByRole('button', { name: 'Save status' }).count()).toBe(0);
    await vpage.goto(`${base}/console/orders/${order.id}`);
    await expect.poll(() => vpage.getByText('Your role can read orders but not act on them.').count()).toBe(1);
    await expect.poll(() => vpage.getByText('hidden for your role').count()).toBe(1);
    expect(await vpage.content()).not.toContain(order.deliveryCode);
    expect(await vpage.getByRole('button', { name: 'Conclude the order' }).count()).toBe(0);
    await screenshot(vpage, '14-viewer-order');
    await vpage.getByRole('link', { name: 'Operators', exact: true }).click();
    expect(await vpage.getByRole('button', { name: 'Create operator' }).count()).toBe(0);
    // Posting anyway (a form the page did not offer) is refused with a 403 page.
    const csrf = await vpage.locator('input[name=_csrf]').first().inputValue();
    const posted = await vpage.request.post(`${base}/console/merchants`, {
      form: { _csrf: csrf, name: 'Pela porta dos fundos' },
      maxRedirects: 0,
    });
    const forbidden = { status: posted.status(), text: await posted.text() };
    expect(forbidden.status).toBe(403);
    expect(forbidden.text).toContain('Forbidden: this needs the admin role (yours is viewer)');
    await viewerContext.close();

    // The admin reads the audit log: every entry, then only the refused viewer attempt.
    await page.getByRole('link', { name: 'Audit', exact: true }).click();
    await expect.poll(() => page.locator('#audit tbody tr').count()).toBeGreaterThanOrEqual(4);
    await expect.poll(() => page.getByRole('cell', { name: 'operator.create' }).count()).toBeGreaterThanOrEqual(1);
    await screenshot(page, '15-audit');
    await page.getByLabel('Actor (email, operator or token id)').fill('vera@cleaver.test');
    await page.getByLabel('Action').fill('merchant.create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('#audit tbody tr').count()).toBe(1);
    await expect.poll(() => page.locator('#audit tbody tr').textContent()).toContain('403');
    await expect
      .poll(() => page.locator('#audit tbody tr').textContent())
      .toContain('Forbidden: this needs the admin role (yours is viewer)');
    await screenshot(page, '16-audit-filtered');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export as JSON lines' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('cleaver-audit.ndjson');

    expect(foreign).toEqual([]);
    await adminContext.close();
  });

  it('fits a phone screen: the audit page has no horizontal overflow', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await signIn(page, admin.email, PASSWORD);
    await page.goto(`${base}/console/audit`);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, '17-phone-audit');
    await context.close();
  });
});
