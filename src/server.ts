import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, buildHealthApp } from './app.js';
import { type Config, ConfigError, loadConfig, STARTUP_EXIT, StartupError } from './config.js';
import { reportDatabaseOutage } from './db/failover.js';
import { migrate, migrationStatus } from './db/migrate.js';
import { type OpenedDatabase, openDatabase, waitForDatabase } from './db/open-database.js';
import { systemClock } from './lib/clock.js';
import { startTracing, tracingEndpoint } from './lib/tracing.js';
import { createShutdownState } from './lifecycle/shutdown-state.js';
import { timingEnvProblem } from './modules/homologation/index.js';
import { warmUpSchemas } from './plugins/lazy-schemas.js';
import { openRedisClient, prepareRedisStore } from './plugins/rate-limit.js';
import { traceRedis } from './plugins/traced-redis.js';
import { createServices } from './services.js';
import { startWorkers } from './workers.js';

export interface RunningServer {
  app: FastifyInstance | undefined;
  config: Config;
  url: string | undefined;
  /** D31: drain, stop accepting, finish in-flight work, close; within the configured deadline. */
  stop(): Promise<void>;
}

const log = (message: string) => process.stdout.write(`${message}\n`);
/** What a start waits for or warns about: diagnostics, on stderr. */
const note = (message: string) => process.stderr.write(`cleaver: ${message}\n`);

/**
 * The schema before anything runs on it: pending migrations applied (or, with
 * migrateOnStart false, refused with what to run), migrations newer than this code reported.
 * Newer ones are a warning, not a stop: during a rolling upgrade the old version keeps running
 * on the migrated database until it is replaced (migrations only add).
 */
async function prepareSchema(opened: OpenedDatabase, config: Config): Promise<string[]> {
  const status = await migrationStatus(opened.db);
  if (status.unknown.length) {
    note(
      `warning: ${opened.where} has migrations this version of cleaver does not know (${status.unknown.join(', ')}): ` +
        'a newer version migrated it; run that version if anything fails',
    );
  }
  if (config.migrateOnStart) {
    const applied = await migrate(opened.db);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    return applied;
  }
  if (status.pending.length) {
    throw new StartupError(
      `${opened.where} lacks ${status.pending.length} migration(s) (${status.pending.join(', ')}): run ` +
        '"cleaver migrate" first, or start without --no-migrate (CLEAVER_MIGRATE_ON_START=true)',
      STARTUP_EXIT.DATABASE_SCHEMA,
    );
  }
  return [];
}

/** What a failed listen means, in one line with the fix. */
function listenError(error: unknown, config: Config): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const at = `${config.host}`;
  switch (code) {
    case 'EADDRINUSE':
      return new StartupError(
        `port ${config.port} is already in use on ${at}: stop the other process or set PORT to a free port`,
        STARTUP_EXIT.CONFIG,
        { cause: error },
      );
    case 'EACCES':
      return new StartupError(
        `port ${config.port} on ${at} needs privileges this process does not have: set PORT above 1023 (e.g. 8080)`,
        STARTUP_EXIT.CONFIG,
        { cause: error },
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(
        `cannot listen on HOST=${config.host} (${code === 'EADDRNOTAVAIL' ? 'not an address of this machine' : 'unknown host'}): ` +
          'set HOST to 127.0.0.1, 0.0.0.0 or an address of this machine',
        STARTUP_EXIT.CONFIG,
        { cause: error },
      );
    default:
      return error;
  }
}

/**
 * Binds and releases the port before anything else starts, so a taken port is reported at
 * once instead of after opening and migrating the database. listen() still has the last word.
 */
async function checkPortFree(config: Config): Promise<void> {
  if (config.port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(listenError(error, config)));
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long a start waits for Redis before going on without it (D31: never fatal). */
const REDIS_START_WAIT_MS = 3_000;

/** config → database → migrate → app and workers → listen (architecture.md#process-model). */
export async function startServer(config: Config = loadConfig()): Promise<RunningServer> {
  // A mistyped homologation timing (sandbox only) would otherwise be ignored at each run's start.
  const timingProblem = config.env === 'sandbox' ? timingEnvProblem(config.homologationTimingEnv) : null;
  if (timingProblem) throw new ConfigError(timingProblem);
  // D31: losing the database is logged (once per outage, D46), never fatal: pools reconnect,
  // workers back off, requests get 503 with Retry-After meanwhile.
  await checkPortFree(config);
  // D46: one warning line per outage for the whole process (lib/outage-report.ts).
  // Before anything that makes spans (docs/operations.md, "Tracing"): off unless an OTLP endpoint is set.
  const tracing = await startTracing(process.env).catch((error: unknown) => {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  });
  if (tracing) log(`tracing: exporting spans to ${tracingEndpoint()}`);
  const open = () =>
    openDatabase(config, (error) => {
      if (!reportDatabaseOutage(error, 'the connection pool')) {
        note(`database connection error (${error.message}); reconnecting, retrying with backoff`);
      }
    });
  let opened = await open();
  try {
    await waitForDatabase(opened, config, note);
    const applied = await prepareSchema(opened, config);
    // The embedded engine's WebAssembly memory only grows: creating a data directory and running
    // every migration left it at about three times what serving needs, for the life of the
    // process (docs/benchmarks.md, "Start-up"). Opened again, it starts from the files.
    if (applied.length && !config.databaseUrl) {
      await opened.close();
      opened = await open();
    }
  } catch (error) {
    await opened.close().catch(() => {});
    throw error;
  }

  const redisTarget = config.redisSentinel ?? config.redisUrl;
  const redis = redisTarget ? await openRedisClient(redisTarget) : undefined;
  redis?.on('error', () => {}); // reconnects by itself; the rate limiter falls back meanwhile
  if (redis) traceRedis(redis);
  // Connected, with the counting script loaded, before this process listens and reports ready:
  // a first request's connect or script load must not look like an outage (D23, D31).
  const redisProblem = redis
    ? await prepareRedisStore(redis, { waitMs: REDIS_START_WAIT_MS, timeoutMs: config.redisTimeoutMs })
    : null;
  if (redisProblem) note(`Redis is not answering (${redisProblem}); rate limits count per process until it does`);

  const services = createServices({ config, db: opened.db, clock: systemClock });
  await services.auth.start();
  // The API learns which keys have nothing pending (docs/adr/0012-pending-keys-cache.md).
  if (config.role !== 'worker') await services.events.start();
  const shutdown = createShutdownState();
  const workers = config.role !== 'api' ? await startWorkers(services) : undefined;
  // D36: an API process's long-polling feed readers wake on the feed's NOTIFY (workers start it too).
  if (config.role === 'api') await services.feed.start();
  const logger = {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers["x-app-signature"]', '*.client_secret', '*.clientSecret'],
  };
  const requestLogging = config.logLevel === 'debug' || config.logLevel === 'trace';
  const appOptions = {
    logger,
    requestLogging,
    shutdown,
    workersHealth: workers?.health,
    feedRelayHealth: workers?.feedRelay,
  };
  // Every role listens: the API, or for `--role worker` only health and metrics (D31).
  const app =
    config.role === 'worker'
      ? await buildHealthApp(services, appOptions)
      : await buildApp(services, { ...appOptions, redis });

  if (config.role !== 'worker') services.usageRecorder.start();
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Nothing may be left running: the process is about to exit with the reason.
    await Promise.allSettled([app.close(), workers?.stop(), services.usageRecorder.stop(), services.feed.stop()]);
    await services.events.stop();
    await services.auth.stop();
    redis?.disconnect();
    await opened.close();
    await tracing?.shutdown();
    throw listenError(error, config);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  log(`cleaver ${config.env} (${config.role}) on ${opened.description}, listening on ${url}`);
  if (config.role !== 'worker') {
    log(`console ${url}/console · API reference ${url}/docs · getting started ${url}/docs/getting-started`);
  }
  // Schemas not used yet compile now, in the background: a broken one still stops the start.
  warmUpSchemas(app).catch((error: unknown) => {
    note(`a route schema does not compile: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = STARTUP_EXIT.CONFIG;
    void stop();
  });
  if (config.generated.adminToken) {
    log(`operator token (generated, kept in ${config.dataDir}/admin-token): ${config.adminToken}`);
  }

  // The process lives until it is told to stop: timers of workers and reconnects are not what
  // keeps it alive, so losing the database never ends it (D31).
  const keepAlive = setInterval(() => {}, 1 << 30);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const started = Date.now();
      const deadline = setTimeout(() => {
        // Out of time: cut what is left so the process can exit within the deadline.
        app.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      deadline.unref();
      try {
        // 1. Drain: readiness 503 at once, keep serving with `Connection: close`.
        shutdown.enter('draining');
        await sleep(Math.min(config.shutdownDrainMs, config.shutdownTimeoutMs / 2));
        // 2. Stop accepting; idle keep-alive connections close now, busy ones after their answer.
        shutdown.enter('closing');
        const closingIdle = setInterval(() => app.server.closeIdleConnections(), 100);
        try {
          await Promise.all([app.close(), workers?.stop(), services.feed.stop()]);
        } finally {
          clearInterval(closingIdle);
        }
        await services.usageRecorder.stop();
        await services.events.stop();
        await services.auth.stop();
        redis?.disconnect();
        await opened.close();
        // The last spans leave before the process does.
        await tracing?.shutdown().catch(() => {});
      } finally {
        shutdown.enter('stopped');
        clearTimeout(deadline);
        clearInterval(keepAlive);
        log(`stopped in ${Date.now() - started} ms`);
      }
    })();
    return stopping;
  };
  return { app, config, url, stop };
}
