// Health routes (operator-api.md#health) and the shutdown behaviour every answer follows (D31).
// Served by every role: a `--role worker` process has no API, but a supervisor still needs to
// know whether it lives and whether its database and queues are healthy.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db.js';
import { isMigrated } from '../db/migrate.js';
import { serviceUnavailable } from '../lib/errors.js';
import type { ShutdownState } from '../lifecycle/shutdown-state.js';

export interface HealthSources {
  db: Db;
  shutdown?: ShutdownState;
  /** Background queues of this process (`--role worker|all`); absent for a bare API. */
  workers?: () => Array<{ queue: string; healthy: boolean; lastError: string | null }>;
  /**
   * D36: the NATS relay of the platform feed (lag, last publish); absent without a broker. A
   * broker that is away does not make the process unready: the backlog waits in the database.
   * D46: a degraded component (`status: degraded`, with `connected`, `backlog`, `lastError`).
   */
  feedRelay?: () => { status?: 'ok' | 'degraded' };
  /** Shared rate-limit counters (D23); absent when REDIS_URL is not set. */
  redis?: () => 'ok' | 'unavailable';
}

/** Retry-After of a 503 sent while the process stops: another instance is the answer. */
const STOPPING_RETRY_AFTER_SEC = 1;

export function registerShutdownHooks(app: FastifyInstance, shutdown: ShutdownState): void {
  app.addHook('onRequest', (_request, reply, done) => {
    if (shutdown.phase() === 'serving') return done();
    // Clients move to another instance at their next request (D31 drain).
    reply.header('connection', 'close');
    if (shutdown.phase() === 'draining') return done();
    done(serviceUnavailable('The service is shutting down; retry', STOPPING_RETRY_AFTER_SEC));
  });
}

export function registerHealthRoutes(app: FastifyInstance, sources: HealthSources): void {
  app.get('/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Ready when the database answers, every migration is applied, and this process is not
  // stopping; queues that cannot reach the database make it unready too (a worker says so).
  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    const extra: Record<string, unknown> = {};
    if (sources.workers) extra.workers = sources.workers();
    if (sources.redis) extra.redis = sources.redis();
    if (sources.feedRelay) extra.feedRelay = sources.feedRelay();
    if (sources.shutdown && sources.shutdown.phase() !== 'serving') {
      return reply.code(503).header('retry-after', String(STOPPING_RETRY_AFTER_SEC)).send({
        title: 'Shutting down',
        status: 503,
      });
    }
    try {
      await sources.db.ping();
      if (!(await isMigrated(sources.db))) return reply.code(503).send({ title: 'Migrations pending', status: 503 });
    } catch {
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ title: 'Database unreachable', status: 503, ...extra });
    }
    const unhealthy = ((extra.workers as Array<{ healthy: boolean; queue: string }> | undefined) ?? []).filter(
      (w) => !w.healthy,
    );
    if (unhealthy.length > 0) {
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ title: `Worker queue unhealthy: ${unhealthy.map((w) => w.queue).join(', ')}`, status: 503, ...extra });
    }
    // D46: still ready (200) with a component degraded: the broker away leaves the backlog in the
    // database, Redis away leaves rate limits per process; the body says which.
    const relay = extra.feedRelay as { status?: string } | undefined;
    const degraded = relay?.status === 'degraded' || extra.redis === 'unavailable';
    return { status: degraded ? 'degraded' : 'ok', database: sources.db.kind, ...extra };
  });
}
