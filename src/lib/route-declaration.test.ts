import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  type Caller,
  declaredRoutesOf,
  declareRoute,
  MERCHANT_READ,
  MERCHANT_WRITE,
  PER_IP,
  requireDeclaredRoutes,
} from './route-declaration.js';

// A scope of app.ts takes only routes declared for its kind of caller, and keeps each declaration
// for the suites; a declaration writes its profile mapping into the published schema once.

async function appWith(caller: Caller, add: (scope: ReturnType<typeof Fastify>) => void) {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  await app.register(
    async (scope) => {
      requireDeclaredRoutes(scope, caller);
      add(scope);
    },
    { prefix: '/v1' },
  );
  return app;
}

const ping = { url: '/ping', summary: 'Ping', schema: {}, handler: async () => ({ ok: true }) };

describe('requireDeclaredRoutes', () => {
  it('stops the start for a route that is not declared, or declared for another kind of caller', async () => {
    await expect(appWith('merchant', (scope) => scope.get('/ping', async () => ({})))).rejects.toThrow(
      'GET /v1/ping is not declared for merchant callers: declare it with declareRoute (src/lib/route-declaration.ts)',
    );
    const perIp = (scope: ReturnType<typeof Fastify>) =>
      scope.route(declareRoute({ method: 'GET', access: PER_IP, ...ping }));
    await expect(appWith('merchant', perIp)).rejects.toThrow('GET /v1/ping is not declared for merchant callers');
  });

  it('keeps every declared route of the app, with its OpenAPI path and what a refusal may write', async () => {
    const app = await appWith('merchant', (scope) => {
      scope.route(declareRoute({ method: 'GET', access: MERCHANT_READ, ...ping, url: '/events::polling' }));
      scope.route(
        declareRoute({
          method: 'POST',
          access: MERCHANT_WRITE,
          ...ping,
          url: '/orders/:orderId/validateCode',
          rejectedMayWrite: { append: ['feed_items'] },
        }),
      );
    });
    await app.ready();
    expect(
      declaredRoutesOf(app).map(({ method, path, rejectedMayWrite }) => ({ method, path, rejectedMayWrite })),
    ).toEqual([
      { method: 'GET', path: '/v1/events:polling', rejectedMayWrite: { update: [], append: [] } },
      {
        method: 'POST',
        path: '/v1/orders/{orderId}/validateCode',
        rejectedMayWrite: { update: [], append: ['feed_items'] },
      },
    ]);
    expect((await app.inject({ method: 'GET', url: '/v1/events:polling' })).json()).toEqual({ ok: true });
    await app.close();
  });
});

describe('declareRoute', () => {
  it('writes the opendelivery mapping into the schema: the other dialect, and 400/422 for a refused action (D28.3)', () => {
    const Answer = Type.Object({ a: Type.String() });
    const OdAnswer = Type.Object({ b: Type.String() });
    const route = declareRoute({
      method: 'POST',
      access: MERCHANT_WRITE,
      ...ping,
      description: 'Does it.',
      schema: { response: { 200: Answer } },
      handler: async () => ({ a: 'x' }),
      opendelivery: { answers: { 200: OdAnswer }, refusedAction: {} },
    });
    const schema = route.schema as Record<string, unknown>;
    expect(schema.description).toMatch(/^Does it\. An action the order’s state does not allow is refused with 400/);
    expect(schema.security).toEqual([{ bearer: [] }]);
    expect(schema.dialectResponses).toEqual({ 200: OdAnswer });
    expect(Object.keys(schema.response as object)).toEqual(['200', '400', '422']);
    expect(route.config).toMatchObject({ rateLimit: 'write', declaration: { access: MERCHANT_WRITE } });
  });
});
