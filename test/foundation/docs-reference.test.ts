// `/docs`, the API reference page (docs/adr/0015-api-reference-page.md), as a reader gets it: over
// HTTP compressed (br, gzip) with an ETag and a 304, under a CSP that allows only its own files;
// in Debian's chromium it is complete (every operation of the document, grouped, with its
// examples) in under a second, its search box narrows it to what is typed, and nothing is fetched
// from elsewhere. The guides beside it (/docs/events, /docs/statements…) still answer.
// What this proves does not depend on the kind of database.

import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES } from '../../src/plugins/openapi-docs/guides.js';
import { ARTIFACTS, launchBrowser, trackForeignRequests } from '../console/browser.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
let t: TestApp;
let browser: Browser;
let base: string;
let operationCount = 0;

beforeAll(async () => {
  t = await createTestApp({});
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
  for (const item of Object.values(doc.paths as Record<string, Json>)) {
    operationCount += ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).length;
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** The screen's first view (a full-page shot of the whole reference takes seconds). */
async function artifact(name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, `${name}.png`);
}

describe('/docs in a browser', () => {
  it('complete in under a second; the search narrows it; nothing fetched elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const foreign = trackForeignRequests(page, base);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Every file the page asks for is there (the browser's own favicon guess aside).
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) errors.push(response.url());
    });
    // The first request for /docs since the service started listening, as a reader's first visit.
    const started = Date.now();
    await page.goto(`${base}/docs`, { waitUntil: 'load' });
    const elapsed = Date.now() - started;
    const timing = await page.evaluate(
      "(() => { const n = performance.getEntriesByType('navigation')[0]; return { responseEnd: Math.round(n.responseEnd), domContentLoaded: Math.round(n.domContentLoadedEventEnd), load: Math.round(n.loadEventEnd) }; })()",
    );
    console.log(`/docs: loaded in ${elapsed} ms`, timing);
    expect(elapsed).toBeLessThan(1000);
    // Rendered: every operation of the document is on the page, each group with a heading.
    const total = await page.locator('section.op').count();
    expect(total).toBeGreaterThanOrEqual(operationCount);
    expect(await page.locator('section.tag h2').count()).toBeGreaterThan(5);
    const onboarding = page.locator('#putV1MerchantOnboarding');
    await expect(onboarding.locator('h4', { hasText: 'Request example' }).count()).resolves.toBe(1);
    await expect(onboarding.locator('table').first().isVisible()).resolves.toBe(true);

    // Search: typed words keep the operations that have all of them; the count says how many.
    await page.locator('#search').fill('orders confirm');
    const visible = page.locator('section.op:visible');
    const shown = await visible.count();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(total);
    for (const text of await visible.locator('h3').allTextContents()) expect(text.toLowerCase()).toContain('order');
    expect(await page.locator('#search-count').textContent()).toBe(`${shown} of ${total} operations`);
    await page.locator('#search').fill('no-such-operation-anywhere');
    expect(await visible.count()).toBe(0);
    expect(await page.locator('#no-match').isVisible()).toBe(true);
    await page.locator('#search').fill('');
    expect(await visible.count()).toBeGreaterThan(0);
    expect(await page.locator('#no-match').isVisible()).toBe(false);

    await page.screenshot({ path: await artifact('docs-reference') });
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('/docs over HTTP', () => {
  it('an HTML page, br or gzip as accepted, ETag and 304, a CSP with nothing inline', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.headers['content-security-policy']).toMatch(/^default-src 'self';/);
    expect(plain.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(plain.body).toMatch(/^<!doctype html>/);
    expect(plain.body).not.toMatch(/<script>|<style>|\sstyle=|\son[a-z]+=/);
    expect((await t.app.inject({ method: 'GET', url: '/docs/' })).body).toBe(plain.body);

    const br = await t.app.inject({ method: 'GET', url: '/docs', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    const gzip = await t.app.inject({ method: 'GET', url: '/docs', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);

    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(plain.headers['cache-control']).toBe('no-cache');
    const again = await t.app.inject({ method: 'GET', url: '/docs', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await t.app.inject({ method: 'GET', url: '/docs', headers: { 'if-none-match': '"other"' } });
    expect(other.statusCode).toBe(200);
  });

  it('its script and style are local, compressed and revalidated too', async () => {
    for (const [url, type] of [
      ['/docs/reference.js', 'text/javascript; charset=utf-8'],
      ['/docs/reference.css', 'text/css; charset=utf-8'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(type);
      expect(res.headers['content-encoding'], url).toBe('br');
      const cached = await t.app.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': res.headers.etag as string },
      });
      expect(cached.statusCode, url).toBe(304);
    }
  });

  it('the guides under /docs/ still answer as HTML', async () => {
    for (const guide of GUIDES) {
      const res = await t.app.inject({ method: 'GET', url: guide.path });
      expect(res.statusCode, guide.path).toBe(200);
      expect(res.headers['content-type'], guide.path).toBe('text/html; charset=utf-8');
    }
  });
});
