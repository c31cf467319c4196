// `/` is a page for people (the console, the API reference and the guides), not a JSON 404; the
// guides are HTML rendered from their Markdown files (docs/guides/, docs/events.md); any other
// unknown path, API or not, is still the JSON 404 `{title, status}`.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES } from '../../src/plugins/openapi-docs/guides.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the landing page and the guides', () => {
  it('/ answers HTML linking the console, the API reference and every guide', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/^<!doctype html>/);
    const links = [...res.body.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual(expect.arrayContaining(['/console', '/docs', '/openapi.json', ...GUIDES.map((g) => g.path)]));
    // Every link of the page leads somewhere (the console to its login).
    for (const link of new Set(links)) {
      const page = await t.app.inject({ method: 'GET', url: link });
      expect([200, 302, 303], link).toContain(page.statusCode);
    }
  });

  it.each(GUIDES.map((g) => [g.path, g] as const))('%s is its Markdown file as HTML', async (_path, guide) => {
    const res = await t.app.inject({ method: 'GET', url: guide.path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(`<html lang="${guide.lang}">`);
    const markdown = readFileSync(new URL(`../../docs/${guide.file}`, import.meta.url), 'utf8');
    const heading = /^# (.+)$/m.exec(markdown)?.[1] as string;
    expect(res.body).toContain(`<h1>${heading}</h1>`);
    // The markers that name snippets for tests stay out of the page.
    expect(res.body).not.toContain('<!-- snippet:');
  });

  it('the getting-started guide walks token → onboarding → catalog → poll → acknowledge, in both languages', async () => {
    for (const path of ['/docs/getting-started', '/docs/getting-started/pt-BR']) {
      const body = (await t.app.inject({ method: 'GET', url: path })).body;
      const order = [
        '/oauth/token',
        '/v1/merchantOnboarding',
        '/v1/merchantUpdate',
        '/v1/events:polling',
        '/v1/events/acknowledgment',
      ].map((p) => body.indexOf(p));
      expect(
        order.every((i) => i > 0),
        path,
      ).toBe(true);
      expect(
        [...order].sort((a, b) => a - b),
        path,
      ).toEqual(order);
    }
  });

  it('an unknown path is still the JSON 404, API or not', async () => {
    for (const url of ['/v1/nothing-here', '/admin/v1/nothing', '/nothing', '/docs-nope']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({
        url,
        status: 404,
        body: { title: 'Route not found', status: 404 },
      });
    }
  });
});
