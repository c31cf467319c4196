// X-Request-Id on every answer (success, JSON 404, 401, 400): a valid inbound id is echoed, so
// one id follows the request across systems; an invalid or missing one is replaced by a uuid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it('is on every answer, a fresh uuid each time when none was sent', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/openapi.json' }),
      await t.app.inject({ method: 'GET', url: '/v1/nothing-here' }),
      await t.app.inject({ method: 'GET', url: '/v1/merchant' }),
      await t.app.inject({ method: 'POST', url: '/oauth/token', payload: {} }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 401, 400]);
    const ids = answers.map((a) => a.headers['x-request-id'] as string);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    expect(answers[1].json()).toEqual({ title: 'Route not found', status: 404 });
  });

  it('echoes a valid inbound id and replaces an invalid one', async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/v1/merchant',
      headers: { 'x-request-id': 'pos-42.trace:7' },
    });
    expect(kept.headers['x-request-id']).toBe('pos-42.trace:7');
    for (const bad of ['has space', 'x'.repeat(129), '<script>', '']) {
      const res = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], JSON.stringify(bad)).toMatch(UUID);
    }
  });
});
