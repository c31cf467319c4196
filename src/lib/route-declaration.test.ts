import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../plugins/error-handler.js';
import { Refusal } from './errors.js';
import {
  type Caller,
  declaredRoutesOf,
  declareRoute,
  MERCHANT_READ,
  MERCHANT_WRITE,
  PER_IP,
  requireDeclaredRoutes,
} from './route-declaration.js';
import { ErrorBody } from './schemas.js';

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

describe('answerRefusal (through the error handler)', () => {
  // The domain raises one Refusal whoever asked; the route's declaration says how an opendelivery
  // key hears it (D28.3), everyone else gets D7's 400.
  async function refusingApp() {
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    registerErrorHandling(app);
    app.addSchema(ErrorBody);
    await app.register(
      async (scope) => {
        requireDeclaredRoutes(scope, 'merchant');
        scope.addHook('onRequest', async (request) => {
          const profile = request.headers['x-profile'];
          if (typeof profile === 'string') (request as { principal?: unknown }).principal = { profile };
        });
        const refuse = async () => {
          throw new Refusal('Order is CANCELLED', { cancellationStatus: 'CANCELLED' });
        };
        const route = (url: string, opendelivery?: { refusedAction: { body422?: ReturnType<typeof Type.Object> } }) =>
          scope.route(
            declareRoute({
              method: 'POST',
              access: MERCHANT_WRITE,
              ...ping,
              url,
              ...(opendelivery ? { opendelivery } : {}),
              handler: refuse,
            }),
          );
        route('/detailed', {
          refusedAction: {
            body422: Type.Object({ title: Type.String(), status: Type.Integer(), cancellationStatus: Type.String() }),
          },
        });
        route('/plain', { refusedAction: {} });
        route('/undeclared');
      },
      { prefix: '/v1' },
    );
    return app;
  }

  it('is 422 for an opendelivery key where the route declares it, with the detail only when body422 is declared', async () => {
    const app = await refusingApp();
    const post = async (url: string, profile?: string) => {
      const res = await app.inject({ method: 'POST', url, headers: profile ? { 'x-profile': profile } : {} });
      return [res.statusCode, res.headers['content-type'], res.json()];
    };
    const title = 'Order is CANCELLED';
    const problem = 'application/problem+json; charset=utf-8';
    const json = 'application/json; charset=utf-8';
    expect(await post('/v1/detailed', 'opendelivery')).toEqual([
      422,
      problem,
      { title, status: 422, cancellationStatus: 'CANCELLED' },
    ]);
    expect(await post('/v1/plain', 'opendelivery')).toEqual([422, problem, { title, status: 422 }]);
    expect(await post('/v1/undeclared', 'opendelivery')).toEqual([400, problem, { title, status: 400 }]);
    expect(await post('/v1/detailed', 'cleaver')).toEqual([400, json, { title, status: 400 }]);
    expect(await post('/v1/detailed')).toEqual([400, json, { title, status: 400 }]);
    await app.close();
  });
});
