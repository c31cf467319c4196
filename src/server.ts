import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { type Config, loadConfig } from './config.js';
import { isDatabaseUnavailable } from './db/db.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open-database.js';
import { systemClock } from './lib/clock.js';
import { createServices } from './services.js';
import { startWorkers } from './workers.js';

export interface RunningServer {
  app: FastifyInstance | undefined;
  config: Config;
  url: string | undefined;
  stop(): Promise<void>;
}

const log = (message: string) => process.stdout.write(`${message}\n`);

/** Waits for a database that is not up yet (PostgreSQL starting alongside us) instead of dying. */
async function migrateWithRetry(run: () => Promise<string[]>): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || attempt >= 60) throw error;
      log(`database not reachable yet (${(error as Error).message}); retrying in 1 s`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** config → database → migrate → app and workers → listen (ARCHITECTURE.md "Process model"). */
export async function startServer(config: Config = loadConfig()): Promise<RunningServer> {
  const opened = await openDatabase(config, (error) => log(`database connection error: ${error.message}`));
  const applied = await migrateWithRetry(() => migrate(opened.db));
  if (applied.length) log(`applied migrations: ${applied.join(', ')}`);

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  redis?.on('error', () => {}); // reconnects by itself; the rate limiter fails open meanwhile

  const services = createServices({ config, db: opened.db, clock: systemClock });
  await services.auth.start();
  const serveApi = config.role !== 'worker';
  const app = serveApi
    ? await buildApp(services, {
        logger: {
          level: config.logLevel,
          redact: ['req.headers.authorization', 'req.headers["x-app-signature"]', '*.client_secret', '*.clientSecret'],
        },
        redis,
      })
    : undefined;
  const workers = config.role !== 'api' ? await startWorkers(services) : undefined;

  let url: string | undefined;
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  }

  log(`cleaver ${config.env} (${config.role}) on ${opened.description}${url ? `, listening on ${url}` : ''}`);
  if (config.generated.adminToken) {
    log(`operator token (generated, kept in ${config.dataDir}/admin-token): ${config.adminToken}`);
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await app?.close();
      await workers?.stop();
      await services.auth.stop();
      redis?.disconnect();
      await opened.close();
    })();
    return stopping;
  };
  return { app, config, url, stop };
}
