import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** `GET /v1/orders/:orderId` → `getV1OrdersByOrderId`; `/v1/events::polling` → `getV1EventsPolling`. */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => segment.split('::'))
    .map((segment) => (segment.startsWith(':') ? `By${segment.slice(1, 2).toUpperCase()}${segment.slice(2)}` : segment))
    .map((w) => w.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return method + words.join('');
}

function securityFor(url: string): Array<Record<string, string[]>> {
  if (url.startsWith('/admin/')) return [{ operator: [] }];
  if (url.startsWith('/v1/logistics/')) return [{ xAppSignature: [] }];
  if (url.startsWith('/v1/') || url === '/oauth/refresh') return [{ bearer: [] }];
  return [];
}

/** OpenAPI 3 generated from the route schemas; served at /openapi.json, reference UI at /docs. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cleaver integration service',
        description:
          'Marketplace side of the integration between a butcher shop POS and the marketplace: OAuth, ' +
          'onboarding, catalog upload, orders, events (polling and webhooks), logistics, and the operator API.',
        version: '1.0.0',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          operator: { type: 'http', scheme: 'bearer', description: 'CLEAVER_ADMIN_TOKEN' },
          xAppSignature: { type: 'apiKey', in: 'header', name: 'X-App-Signature' },
        },
      },
    },
    // Every operation gets a stable operationId (client generators name methods after it) and the
    // security scheme its prefix implies, so route files do not repeat them.
    transform: ({ schema, url, route }) => {
      const method = (Array.isArray(route.method) ? route.method[0] : route.method).toLowerCase();
      const s = { ...(schema as Record<string, unknown>) };
      s.operationId ??= operationIdFor(method, url);
      s.security ??= securityFor(url);
      // Answers any route can give (D22, D23): documented once here, not in every route file.
      const response = { ...((s.response as Record<string, unknown> | undefined) ?? {}) };
      const generic = [400, 413, 415, 429, 500, 503, ...(securityFor(url).length ? [401] : [])];
      for (const code of generic) response[code] ??= { $ref: 'Error' };
      s.response = response;
      return { schema: s as typeof schema, url };
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
