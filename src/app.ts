import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
  LogController,
  type onResponseHookHandler,
} from 'fastify';
import type { Redis } from 'ioredis';
import { consoleRoutes } from './console/index.js';
import { rewriteEncodedColon } from './lib/encoded-colon.js';
import { badRequest } from './lib/errors.js';
import { lazyRequestLogger } from './lib/lazy-request-logger.js';
import { reportOutage } from './lib/outage-report.js';
import { requireDeclaredRoutes } from './lib/route-declaration.js';
import { ErrorBody } from './lib/schemas.js';
import { unstorableTextPath } from './lib/storable-text.js';
import { tracingOn } from './lib/tracing.js';
import type { ShutdownState } from './lifecycle/shutdown-state.js';
import {
  adminAvailabilityRoutes,
  adminCatalogRoutes,
  adminLogisticsRoutes,
  adminMerchantsRoutes,
  adminNoticesRoutes,
  adminOrdersRoutes,
  adminScaleLabelRoutes,
  adminWebhooksRoutes,
  adminWeighingRoutes,
} from './modules/admin-api/index.js';
import { oauthRoutes, type Principal } from './modules/auth/index.js';
import { catalogRoutes } from './modules/catalog/index.js';
import { developerRoutes } from './modules/developer/index.js';
import { eventsRoutes } from './modules/events/index.js';
import { asyncApiDocument, feedRoutes } from './modules/feed/index.js';
import { operatorHomologationRoutes, posHomologationRoutes } from './modules/homologation/index.js';
import { logisticsRoutes, useLogisticsAuth } from './modules/logistics/index.js';
import { onboardingRoutes, pauseRoutes, scaleLabelRoutes } from './modules/merchants/index.js';
import { auditRoutes, operatorsRoutes } from './modules/operators/index.js';
import { ordersRoutes, versionsRoutes } from './modules/orders/index.js';
import { operatorSandboxRoutes, posSandboxRoutes } from './modules/sandbox/index.js';
import { adminStatementsRoutes, statementsRoutes } from './modules/statements/index.js';
import { routeGroupOf } from './modules/usage/index.js';
import { webhookForwardingRoutes } from './modules/webhooks/index.js';
import { merchantAuth, useOperatorApiAuth } from './plugins/auth-hooks.js';
import { registerErrorHandling, renderClientError, renderFrameworkError } from './plugins/error-handler.js';
import { type HealthSources, registerHealthRoutes, registerShutdownHooks } from './plugins/health.js';
import { registerJsonBodyParser } from './plugins/json-body.js';
import { attachLazySchemas, createLazySchemas } from './plugins/lazy-schemas.js';
import { registerHttpMetrics } from './plugins/metrics.js';
import { registerOpenApi } from './plugins/openapi.js';
import {
  createFailoverStore,
  createMemoryStore,
  createRedisStore,
  type RateLimitStore,
  rateLimitHook,
} from './plugins/rate-limit.js';
import { registerRequestId, requestIdOf } from './plugins/request-id.js';
import { hooksOf } from './plugins/route-hooks.js';
import { registerTracingHooks } from './plugins/tracing-hooks.js';
import { lazyValidatorCompiler } from './plugins/validation.js';
import type { Services } from './services.js';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /**
   * Fastify's two log lines per request ("incoming request", "request completed"). Off unless
   * LOG_LEVEL is debug or trace (server.ts): writing them cost about a third of the CPU of a 204
   * poll (docs/benchmarks.md, poll storm). Every request is still counted per route and status
   * with its duration in /metrics, and errors are still logged.
   */
  requestLogging?: boolean;
  redis?: Redis;
  /** Extra routes behind the merchant token and rate limits (benchmarks measure the auth layer with it). */
  extraMerchantRoutes?: FastifyPluginAsync;
  /** D31: the process's shutdown phase (server.ts); tests build apps without one. */
  shutdown?: ShutdownState;
  /** Health of this process's background queues, for /health/ready. */
  workersHealth?: HealthSources['workers'];
  /** D36: the NATS relay of the platform feed in this process, for /health/ready. */
  feedRelayHealth?: HealthSources['feedRelay'];
  /**
   * Each key's requests in its request log (default on). Off only to measure what it
   * costs (bench/auth.ts).
   */
  requestLog?: boolean;
}

const MINUTE = 60_000;
/** Token requests are a few hundred bytes; nothing authenticates them before they are read. */
const OAUTH_BODY_LIMIT = 16 * 1024;
/** A deliveryUpdate is a few KB; the signature is checked over every byte of it. */
const LOGISTICS_BODY_LIMIT = 1024 * 1024;

/** Every route registered in `scope` from now on gets `limit` (or less) unless it sets its own. */
function limitBodies(scope: FastifyInstance, limit: number): void {
  scope.addHook('onRoute', (route) => {
    route.bodyLimit ??= Math.min(limit, scope.initialConfig.bodyLimit ?? limit);
  });
}
/** A whole catalog upload (50k items ≈ 12 MB) may be larger than any other body. */
const CATALOG_UPLOAD_FACTOR = 4;

/** Builds the HTTP app from its services. Every module is registered here, with its prefix. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config, db, auth } = services;
  // Route schemas compile on first use or at the server's warm-up (plugins/lazy-schemas.ts).
  const schemas = createLazySchemas();
  const app = Fastify({
    schemaController: schemas.schemaController,
    logger: options.logger ?? false,
    // A request's logger is built when it first writes (src/lib/lazy-request-logger.ts).
    ...(options.logger ? { childLoggerFactory: lazyRequestLogger } : {}),
    logController: new LogController({ disableRequestLogging: !options.requestLogging }),
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: false,
    // Long ids and literal colons (`/v1/events:polling`) are part of the routes.
    routerOptions: { maxParamLength: 200 },
    // D40: `/v1/events%3Apolling` is the polling route too.
    rewriteUrl: rewriteEncodedColon,
    ajv: { customOptions: { strict: false } },
    frameworkErrors: renderFrameworkError,
    // Malformed requests the HTTP parser refuses (431 oversized headers…) get {title, status} too.
    clientErrorHandler: renderClientError,
    // D31: our shutdown hook answers a stopping process's requests ({title, status}, Retry-After).
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  registerRequestId(app);
  // Tracing (docs/operations.md): hooks only while it is on, so that off costs nothing.
  if (tracingOn()) registerTracingHooks(app);

  // D31: first of all hooks, so a stopping process answers before touching anything else.
  if (options.shutdown) registerShutdownHooks(app, options.shutdown);
  // Declared on every request, null until the bearer check sets it: one object shape for all
  // requests, so the code that handles them sees one (docs/benchmarks.md, "Figures of 2026-11-27,
  // eighth session").
  app.decorateRequest('principal', null as unknown as Principal);
  app.setValidatorCompiler(lazyValidatorCompiler(schemas));
  attachLazySchemas(app, schemas);
  // Before any route: each route gets its metrics hook when it is declared.
  registerHttpMetrics(app, services.metrics);
  // Bodies are JSON (spec 4); anything else is 415 (D22), not a string handed to validation.
  app.removeContentTypeParser('text/plain');
  // Strict UTF-8, bounded depth, storable text: checked while parsing (src/plugins/json-body.ts).
  registerJsonBodyParser(app);
  app.addSchema(ErrorBody);
  registerErrorHandling(app);
  // Query strings and path parameters: text PostgreSQL cannot store is a 400 naming the parameter
  // (bodies are checked by the parser; a `%00` in a path reached the database as a 500). Both are
  // flat and small, so this walk is bounded.
  app.addHook('preValidation', (request, _reply, done) => {
    const bad = unstorableTextPath(request.query) ?? unstorableTextPath(request.params);
    done(bad ? badRequest(`${bad} contains characters that cannot be stored (NUL or unpaired surrogate)`) : undefined);
  });
  await registerOpenApi(app, config.publicUrl, () =>
    asyncApiDocument({
      version: '1.0.0',
      publicUrl: config.publicUrl,
      natsUrl: config.natsUrl,
      stream: config.natsStream,
    }),
  );

  // D46: a Redis failover is one warning line per outage (lib/outage-report.ts), not a stack trace.
  const onStoreError = (error: unknown) =>
    reportOutage('redis', error instanceof Error ? error.message : String(error), 'the rate-limit store');
  // D23/D31: shared counters in Redis when configured, each call bounded; this instance's own
  // counters while Redis is away.
  const store: RateLimitStore = options.redis
    ? createFailoverStore(createRedisStore(options.redis), createMemoryStore(), {
        timeoutMs: config.redisTimeoutMs,
        onError: onStoreError,
      })
    : createMemoryStore();
  const perKey = (request: { principal?: { keyId: string } }) => request.principal?.keyId ?? 'anonymous';
  const limits = config.rateLimits;
  const limiters = {
    auth: rateLimitHook(
      store,
      { name: 'auth', limit: limits.authPerMinute, windowMs: MINUTE },
      (r) => r.ip,
      onStoreError,
    ),
    // A POS's reads and writes may be answered from the last shared count far from the limit
    // (docs/adr/0013-rate-limit-answered-from-the-last-count.md); token and login attempts never.
    read: rateLimitHook(
      store,
      { name: 'read', limit: limits.readPerMinute, windowMs: MINUTE, answerFarFromLimit: true },
      perKey,
      onStoreError,
    ),
    write: rateLimitHook(
      store,
      { name: 'write', limit: limits.writePerMinute, windowMs: MINUTE, answerFarFromLimit: true },
      perKey,
      onStoreError,
    ),
    login: rateLimitHook(
      store,
      { name: 'login', limit: limits.loginPerMinute, windowMs: MINUTE },
      (r) => r.ip,
      onStoreError,
    ),
  };

  // D25: the sandbox's scenario routes exist only in the sandbox (404 in production).
  const sandbox = services.sandbox;
  const homologation = services.homologation;
  // A run's timers belong to this process: stopped (and the run CANCELLED) when it closes.
  if (homologation) app.addHook('onClose', () => homologation.stop());

  registerHealthRoutes(app, {
    db,
    shutdown: options.shutdown,
    workers: options.workersHealth,
    feedRelay: options.feedRelayHealth,
    redis: store.status ? () => (store.status as () => 'ok' | 'unavailable')() : undefined,
  });

  // /oauth: no bearer token; one per-IP budget shared by the three routes (spec 8, D23). Nothing
  // authenticates a body here before it is read, so it is kept small.
  await app.register(async (scope) => {
    limitBodies(scope, OAUTH_BODY_LIMIT);
    await scope.register(formbody);
    scope.addHook('onRequest', limiters.auth);
    requireDeclaredRoutes(scope, 'public');
    await scope.register(oauthRoutes, { prefix: '/oauth', auth });
  });

  // D29: Open Delivery's version discovery, asked before a token exists; per-IP like /oauth.
  await app.register(async (scope) => {
    scope.addHook('onRequest', limiters.auth);
    requireDeclaredRoutes(scope, 'public');
    await scope.register(versionsRoutes, { prefix: '/v1' });
  });

  // /v1 merchant routes: bearer token, then the per-key budget of the route's group (D23).
  await app.register(async (scope) => {
    // Homologation (operator-api.md#homologation): what a key under a RUNNING run does, and the
    // 401/429/503 the run injects into its requests; one Map check when no run is active. It runs
    // within the bearer check's hook, right after it: every hook Fastify runs has a cost of its
    // own on every merchant request (docs/benchmarks.md, "Figures of 2026-11-27, eighth session").
    const observer = services.homologationObserver;
    const requestLog = options.requestLog === false ? undefined : services.requestLog;
    // What is waiting in the request log is written before the app is gone (tests read it after).
    if (requestLog) app.addHook('onClose', () => requestLog.stop());
    scope.addHook('onRequest', merchantAuth(auth, observer.onRequest));
    // Each route, as it is declared, gets the limiter of its group (D23), then after the answer the
    // usage counter of its usage group (modules/usage: counted in memory, written in batches) and
    // the observer's record; all of them after the bearer check and the observer above. The
    // request log takes its row in the same hook; reads of the log itself are not logged.
    scope.addHook('onRoute', (route) => {
      const limiter = limiters[(route.config as { rateLimit?: 'read' | 'write' } | undefined)?.rateLimit ?? 'write'];
      const fixedGroup = typeof route.method === 'string' ? routeGroupOf(route.method, route.url) : undefined;
      const log = route.url.startsWith('/v1/developer/') ? undefined : requestLog;
      // An empty poll (204) is not logged: at one poll every 30 s a key's last 1,000 requests would
      // be nothing but them after eight hours, and the poll path stays free of the log's cost.
      const emptyAnswerUnlogged = fixedGroup === 'poll';
      const recordUsage: onResponseHookHandler = (request, reply, done) => {
        if (request.principal) {
          const elapsed = reply.elapsedTime;
          services.usageRecorder.record(
            request.principal,
            fixedGroup ?? routeGroupOf(request.method, route.url),
            reply.statusCode,
            elapsed,
          );
          if (!(emptyAnswerUnlogged && reply.statusCode === 204)) {
            log?.record(request.principal, request, reply.statusCode, elapsed);
          }
        }
        observer.onResponse(request, reply, done);
      };
      route.onRequest = [limiter, ...hooksOf(route.onRequest)];
      route.onResponse = [...hooksOf(route.onResponse), recordUsage];
    });
    // Benchmarks' and tests' own routes, outside the declared ones (bench/support/auth-target.ts).
    if (options.extraMerchantRoutes) await scope.register(options.extraMerchantRoutes);
    // Every route below is declared for the merchant's token (src/lib/route-declaration.ts).
    await scope.register(async (declared) => {
      requireDeclaredRoutes(declared, 'merchant');
      await declared.register(onboardingRoutes, { prefix: '/v1', merchants: services.merchants });
      await declared.register(scaleLabelRoutes, { prefix: '/v1', merchants: services.merchants });
      await declared.register(pauseRoutes, { prefix: '/v1', merchants: services.merchants });
      await declared.register(ordersRoutes, { prefix: '/v1', orders: services.orders });
      await declared.register(eventsRoutes, { prefix: '/v1', events: services.events });
      await declared.register(developerRoutes, {
        prefix: '/v1',
        requestLog: services.requestLog,
        webhooks: services.webhooks,
      });
      if (sandbox) await declared.register(posSandboxRoutes, { prefix: '/v1', sandbox });
      if (homologation) await declared.register(posHomologationRoutes, { prefix: '/v1', homologation });
      if (sandbox) {
        await declared.register(webhookForwardingRoutes, { prefix: '/v1', forwarding: services.webhooks.forwarding });
      }
      await declared.register(statementsRoutes, { prefix: '/v1', statements: services.statements });
      await declared.register(catalogRoutes, {
        catalog: services.catalog,
        uploadBodyLimit: config.bodyLimitBytes * CATALOG_UPLOAD_FACTOR,
      });
    });
  });

  // /v1/logistics: no bearer token; the X-App-* headers and the body signature (spec 5.2).
  await app.register(
    async (scope) => {
      limitBodies(scope, LOGISTICS_BODY_LIMIT);
      useLogisticsAuth(scope, { logisticsApps: services.logisticsApps });
      requireDeclaredRoutes(scope, 'logistics');
      await scope.register(logisticsRoutes, { logistics: services.logistics });
    },
    { prefix: '/v1/logistics' },
  );

  // /admin/v1: CLEAVER_ADMIN_TOKEN or a personal operator token, the role rule of each route, and
  // an audit entry for every change (src/plugins/auth-hooks.ts, docs/security.md).
  await app.register(
    async (scope) => {
      useOperatorApiAuth(scope, { operators: services.operators, audit: services.audit });
      await scope.register(adminMerchantsRoutes, {
        merchants: services.merchants,
        auth,
        lastCatalogSync: services.catalog.lastSync,
        usage: services.usage,
        statements: services.statements,
      });
      await scope.register(adminCatalogRoutes, { merchants: services.merchants, catalog: services.catalog });
      await scope.register(adminScaleLabelRoutes, { merchants: services.merchants });
      await scope.register(adminWeighingRoutes, { orders: services.orders });
      await scope.register(adminAvailabilityRoutes, {
        merchants: services.merchants,
        catalog: services.catalog,
        orders: services.orders,
      });
      await scope.register(adminLogisticsRoutes, { logisticsApps: services.logisticsApps });
      await scope.register(adminOrdersRoutes, {
        orders: services.orders,
        events: services.events,
        merchants: services.merchants,
        logisticsUpdates: services.logistics.listUpdates,
        webhookDeliveries: (orderId) => services.webhooks.listOrderDeliveries(orderId),
      });
      await scope.register(adminWebhooksRoutes, { merchants: services.merchants, webhooks: services.webhooks });
      await scope.register(adminNoticesRoutes, { notices: services.notices });
      await scope.register(operatorsRoutes, { operators: services.operators, clock: services.clock });
      await scope.register(auditRoutes, { audit: services.audit });
      await scope.register(feedRoutes, { feed: services.feed });
      await scope.register(adminStatementsRoutes, { statements: services.statements });
      if (sandbox) await scope.register(operatorSandboxRoutes, { sandbox });
      if (homologation) await scope.register(operatorHomologationRoutes, { homologation });
    },
    { prefix: '/admin/v1' },
  );

  // The operator console: HTML pages behind its own session login (src/console, architecture.md#operator-console).
  await app.register(consoleRoutes, { prefix: '/console', services, loginLimiter: limiters.login });

  return app;
}

/**
 * `--role worker`: no API, only health and metrics, so a supervisor can see that the process
 * lives and whether its database and queues are healthy (D31).
 */
export async function buildHealthApp(
  services: Services,
  options: Pick<AppOptions, 'logger' | 'requestLogging' | 'shutdown' | 'workersHealth' | 'feedRelayHealth'> = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // A request's logger is built when it first writes (src/lib/lazy-request-logger.ts).
    ...(options.logger ? { childLoggerFactory: lazyRequestLogger } : {}),
    logController: new LogController({ disableRequestLogging: !options.requestLogging }),
    genReqId: requestIdOf,
    requestIdHeader: false,
    frameworkErrors: renderFrameworkError,
    clientErrorHandler: renderClientError,
    return503OnClosing: false,
  });
  registerRequestId(app);
  // Tracing (docs/operations.md): hooks only while it is on, so that off costs nothing.
  if (tracingOn()) registerTracingHooks(app);
  if (options.shutdown) registerShutdownHooks(app, options.shutdown);
  registerHttpMetrics(app, services.metrics);
  registerErrorHandling(app);
  registerHealthRoutes(app, {
    db: services.db,
    shutdown: options.shutdown,
    workers: options.workersHealth,
    feedRelay: options.feedRelayHealth,
  });
  return app;
}
