import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { completeOpenApi } from './openapi-docs/complete.js';
import { GUIDES, guideHtml, landingHtml } from './openapi-docs/guides.js';
import {
  etagMatches,
  type PublishedDocument,
  preferredEncoding,
  publishDocument,
} from './openapi-docs/published-document.js';
import { REFERENCE_CSP, REFERENCE_SCRIPT, REFERENCE_STYLE, referenceHtml } from './openapi-docs/reference-page.js';

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

/**
 * D28.4: a merchant route's error is `application/json` for a cleaver key and
 * `application/problem+json` (the same {title, status}) for an opendelivery key; both are
 * documented on every error answer of a /v1 route that takes a bearer token.
 */
function withProblemJson(response: unknown): unknown {
  const schema = response as Record<string, unknown>;
  if (schema.content) return schema;
  const { description, ...rest } = schema;
  return {
    description: (description as string | undefined) ?? 'Error {title, status}',
    content: { 'application/json': { schema: rest }, 'application/problem+json': { schema: rest } },
  };
}

/** OpenAPI 3 generated from the route schemas; served at /openapi.json, the reference page at /docs. */
export async function registerOpenApi(
  app: FastifyInstance,
  publicUrl: string,
  /** The platform feed's AsyncAPI document (D36), served the same way at /asyncapi.json. */
  asyncApi?: () => Record<string, unknown>,
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cleaver integration service',
        description:
          'Marketplace side of the integration between a butcher shop POS and the marketplace: OAuth, ' +
          'onboarding, catalog upload, orders, events (polling and webhooks), logistics, and the operator API. ' +
          'Clients for POS software, in the repository: TypeScript (`@cleaver/pos-client`, packages/pos-client), ' +
          'Delphi and Free Pascal (clients/pascal) and C# for .NET Framework 4.6.1 and .NET Standard 2.0 (clients/dotnet).',
        version: '1.0.0',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          operator: {
            type: 'http',
            scheme: 'bearer',
            description: 'CLEAVER_ADMIN_TOKEN, or a personal operator token (`cop_…`) whose role the route allows',
          },
          xAppSignature: { type: 'apiKey', in: 'header', name: 'X-App-Signature' },
          // D13: /oauth/token and /oauth/revoke take the client credentials as HTTP Basic too.
          clientBasic: {
            type: 'http',
            scheme: 'basic',
            description: 'client_id:client_secret (RFC 6749 2.3.1), instead of client_id and client_secret in the body',
          },
        },
      },
    },
    // Every operation gets a stable operationId (client generators name methods after it) and the
    // security scheme its prefix implies, so route files do not repeat them.
    transform: ({ schema, url, route }) => {
      // Fastify refuses a route declared with an empty method list, so a list has a first method.
      const method = (Array.isArray(route.method) ? route.method[0]! : route.method).toLowerCase();
      const s = { ...(schema as Record<string, unknown>) };
      s.operationId ??= operationIdFor(method, url);
      s.security ??= securityFor(url);
      const secured = (s.security as unknown[]).length > 0;
      // Answers any route can give (D22, D23): documented once here, not in every route file.
      const response = { ...((s.response as Record<string, unknown> | undefined) ?? {}) };
      // D27: a route answering in two dialects documents both shapes of that answer.
      const dialects = (s.dialectResponses as Record<string, Record<string, unknown>> | undefined) ?? {};
      for (const [code, alternative] of Object.entries(dialects)) {
        const base = response[code] as Record<string, unknown> | undefined;
        response[code] = base ? { anyOf: [base, alternative] } : alternative;
      }
      delete s.dialectResponses;
      // A GET or HEAD has no body to be too large or of the wrong type.
      const readsBody = method !== 'get' && method !== 'head';
      const generic = [
        400,
        ...(readsBody ? [413, 415] : []),
        429,
        500,
        503,
        ...(secured ? [401] : []),
        // A role below the route's rule (docs/security.md).
        ...(url.startsWith('/admin/') ? [403] : []),
      ];
      for (const code of generic) response[code] ??= { $ref: 'Error' };
      if (secured && url.startsWith('/v1/') && !url.startsWith('/v1/logistics/')) {
        for (const code of Object.keys(response)) {
          if (Number(code) >= 400) response[code] = withProblemJson(response[code]);
        }
      }
      s.response = response;
      return { schema: s as typeof schema, url };
    },
    // Texts, examples, webhooks and the event catalog for readers (openapi-docs/complete.ts).
    transformObject: (document) =>
      completeOpenApi(
        ('openapiObject' in document ? document.openapiObject : document.swaggerObject) as Record<string, unknown>,
      ) as never,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  // The document is large and the same until the next deploy: built, hashed and compressed once,
  // sent compressed when the client accepts it, and answered 304 when the client has it already.
  const sendPublished = (
    request: FastifyRequest,
    reply: FastifyReply,
    published: PublishedDocument,
    type = 'application/json; charset=utf-8',
  ) => {
    reply
      .header('etag', published.etag)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type(type);
    if (etagMatches(request.headers['if-none-match'], published.etag)) return reply.code(304).send();
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding) return reply.header('content-encoding', encoding).send(published[encoding]);
    return reply.send(published.identity);
  };
  let openApi: PublishedDocument | undefined;
  const openApiDocument = () => {
    openApi ??= publishDocument(JSON.stringify(app.swagger()));
    return openApi;
  };
  const serveDocument = (path: string, published: () => PublishedDocument, type?: string) => {
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      if (type?.startsWith('text/html')) reply.header('content-security-policy', REFERENCE_CSP);
      return sendPublished(request, reply, published(), type);
    });
  };
  serveDocument('/openapi.json', openApiDocument);
  // The same document where earlier versions of /docs read it.
  serveDocument('/docs/json', openApiDocument);
  // The reference page (openapi-docs/reference-page.ts): built from the document on its first
  // request, then compressed and revalidated like it; its script and style are local files.
  let reference: PublishedDocument | undefined;
  const referencePage = () => {
    reference ??= publishDocument(referenceHtml(app.swagger() as Record<string, unknown>, GUIDES));
    return reference;
  };
  for (const path of ['/docs', '/docs/']) serveDocument(path, referencePage, 'text/html; charset=utf-8');
  // Built once the service listens (a few hundred ms of CPU, off the start path), so a reader's
  // first visit does not wait for it; apps that never listen (tests by inject) never pay it.
  app.addHook('onListen', async () => {
    setImmediate(() => {
      // A failure here is the first request's to report (it builds the page again); never a crash.
      try {
        referencePage();
      } catch (error) {
        app.log.warn({ err: error }, 'the /docs page could not be built ahead of its first request');
      }
    });
  });
  const script = publishDocument(REFERENCE_SCRIPT);
  const style = publishDocument(REFERENCE_STYLE);
  serveDocument('/docs/reference.js', () => script, 'text/javascript; charset=utf-8');
  serveDocument('/docs/reference.css', () => style, 'text/css; charset=utf-8');
  if (asyncApi) {
    let published: PublishedDocument | undefined;
    serveDocument('/asyncapi.json', () => {
      published ??= publishDocument(JSON.stringify(asyncApi()));
      return published;
    });
  }
  // The guides (docs/events.md, docs/guides/) as HTML, for people reading the reference at /docs.
  for (const guide of GUIDES) {
    let html: string | undefined;
    app.get(guide.path, { schema: { hide: true } }, async (_request, reply) => {
      html ??= guideHtml(guide);
      return reply.type('text/html; charset=utf-8').send(html);
    });
  }
  // `/`: a page for a person who opened the service's address (unknown API paths stay JSON 404s).
  let landing: string | undefined;
  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    landing ??= landingHtml();
    return reply.type('text/html; charset=utf-8').send(landing);
  });
}
