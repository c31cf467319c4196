import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { consoleRoutes } from './console/index.js';
import { isMigrated } from './db/migrate.js';
import { badRequest } from './lib/errors.js';
import { ErrorBody } from './lib/schemas.js';
import { unstorableTextPath } from './lib/storable-text.js';
import { oauthRoutes } from './modules/auth/oauth-routes.js';
import { catalogRoutes } from './modules/catalog/catalog-routes.js';
import { eventsRoutes } from './modules/events/events-routes.js';
import { logisticsRoutes, useLogisticsAuth } from './modules/logistics/index.js';
import { onboardingRoutes } from './modules/merchants/onboarding-routes.js';
import { operatorCatalogRoutes } from './modules/operator/operator-catalog-routes.js';
import { operatorLogisticsRoutes } from './modules/operator/operator-logistics-routes.js';
import { operatorMerchantsRoutes } from './modules/operator/operator-merchants-routes.js';
import { operatorOrdersRoutes } from './modules/operator/operator-orders-routes.js';
import { operatorWebhooksRoutes } from './modules/operator/operator-webhooks-routes.js';
import { ordersRoutes } from './modules/orders/orders-routes.js';
import { adminAuth, merchantAuth } from './plugins/auth-hooks.js';
import { registerErrorHandling, renderFrameworkError } from './plugins/error-handler.js';
import { registerHttpMetrics } from './plugins/metrics.js';
import { registerOpenApi } from './plugins/openapi.js';
import { createMemoryStore, createRedisStore, type RateLimitStore, rateLimitHook } from './plugins/rate-limit.js';
import { validatorCompiler } from './plugins/validation.js';
import type { Services } from './services.js';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  redis?: Redis;
  /** Extra routes behind the merchant token and rate limits (benchmarks measure the auth layer with it). */
  extraMerchantRoutes?: FastifyPluginAsync;
}

const MINUTE = 60_000;
/** A whole catalog upload (50k items ≈ 12 MB) may be larger than any other body. */
const CATALOG_UPLOAD_FACTOR = 4;

/** Builds the HTTP app from its services. Every module is registered here, with its prefix. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config, db, auth } = services;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: false,
    // Long ids and literal colons (`/v1/events:polling`) are part of the routes.
    routerOptions: { maxParamLength: 200 },
    ajv: { customOptions: { strict: false } },
    frameworkErrors: renderFrameworkError,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON (spec 4); anything else is 415 (D22), not a string handed to validation.
  app.removeContentTypeParser('text/plain');
  app.addSchema(ErrorBody);
  registerErrorHandling(app);
  // Every parsed JSON body and query: text PostgreSQL cannot store is a 400 naming the field.
  app.addHook('preValidation', (request, _reply, done) => {
    const bad = unstorableTextPath(request.body) ?? unstorableTextPath(request.query);
    done(bad ? badRequest(`${bad} contains characters that cannot be stored (NUL or unpaired surrogate)`) : undefined);
  });
  await registerOpenApi(app, config.publicUrl);
  registerHttpMetrics(app, services.metrics);

  const store: RateLimitStore = options.redis ? createRedisStore(options.redis) : createMemoryStore();
  const onStoreError = (error: unknown) => app.log.warn({ err: error }, 'rate-limit store unavailable');
  const perKey = (request: { principal?: { keyId: string } }) => request.principal?.keyId ?? 'anonymous';
  const limits = config.rateLimits;
  const limiters = {
    auth: rateLimitHook(
      store,
      { name: 'auth', limit: limits.authPerMinute, windowMs: MINUTE },
      (r) => r.ip,
      onStoreError,
    ),
    read: rateLimitHook(store, { name: 'read', limit: limits.readPerMinute, windowMs: MINUTE }, perKey, onStoreError),
    write: rateLimitHook(
      store,
      { name: 'write', limit: limits.writePerMinute, windowMs: MINUTE },
      perKey,
      onStoreError,
    ),
  };

  // Health (OPERATOR-API.md): live while the process runs; ready when the database answers and
  // every migration is applied.
  app.get('/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.ping();
      if (!(await isMigrated(db))) return reply.code(503).send({ title: 'Migrations pending', status: 503 });
      return { status: 'ok', database: db.kind };
    } catch {
      return reply.code(503).header('retry-after', '5').send({ title: 'Database unreachable', status: 503 });
    }
  });

  // /oauth: no bearer token; one per-IP budget shared by the three routes (spec 8, D23).
  await app.register(async (scope) => {
    await scope.register(formbody);
    scope.addHook('onRequest', limiters.auth);
    await scope.register(oauthRoutes, { auth });
  });

  // /v1 merchant routes: bearer token, then the per-key budget of the route's group (D23).
  await app.register(async (scope) => {
    scope.addHook('onRequest', merchantAuth(auth));
    scope.addHook('onRequest', (request, reply, done) => {
      const group = (request.routeOptions.config as { rateLimit?: 'read' | 'write' }).rateLimit ?? 'write';
      limiters[group](request, reply, done);
    });
    await scope.register(onboardingRoutes, { merchants: services.merchants });
    await scope.register(ordersRoutes, { orders: services.orders });
    await scope.register(eventsRoutes, { events: services.events });
    if (options.extraMerchantRoutes) await scope.register(options.extraMerchantRoutes);
    await scope.register(catalogRoutes, {
      catalog: services.catalog,
      uploadBodyLimit: config.bodyLimitBytes * CATALOG_UPLOAD_FACTOR,
    });
  });

  // /v1/logistics: no bearer token; the X-App-* headers and the body signature (spec 5.2).
  await app.register(
    async (scope) => {
      useLogisticsAuth(scope, { logisticsApps: services.logisticsApps });
      await scope.register(logisticsRoutes, { logistics: services.logistics });
    },
    { prefix: '/v1/logistics' },
  );

  // /admin/v1: the operator token.
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', adminAuth(config.adminToken));
      await scope.register(operatorMerchantsRoutes, {
        merchants: services.merchants,
        auth,
        lastCatalogSync: services.catalog.lastSync,
      });
      await scope.register(operatorCatalogRoutes, { merchants: services.merchants, catalog: services.catalog });
      await scope.register(operatorLogisticsRoutes, { logisticsApps: services.logisticsApps });
      await scope.register(operatorOrdersRoutes, {
        orders: services.orders,
        events: services.events,
        merchants: services.merchants,
        logisticsUpdates: services.logistics.listUpdates,
        webhookDeliveries: (orderId) => services.webhooks.listOrderDeliveries(orderId),
      });
      await scope.register(operatorWebhooksRoutes, { merchants: services.merchants, webhooks: services.webhooks });
    },
    { prefix: '/admin/v1' },
  );

  // The operator console: HTML pages behind its own session login (src/console, issue 8).
  await app.register(consoleRoutes, { prefix: '/console', services });

  return app;
}
