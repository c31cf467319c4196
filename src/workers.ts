import { startEmbeddedUpkeep } from './db/embedded-upkeep.js';
import { reportDatabaseOutage } from './db/failover.js';
import type { WorkerHealth } from './jobs/leased-worker.js';
import { throttledReport } from './jobs/throttled-report.js';
import { reportOutage } from './lib/outage-report.js';
import { traced } from './lib/tracing.js';
import { createFeedRelay, type FeedRelayHealth, publishProblem } from './modules/feed/index.js';
import type { Services } from './services.js';

export interface RunningWorkers {
  health(): WorkerHealth[];
  /** D36: the NATS relay of the platform feed, when CLEAVER_NATS_URL is set. */
  feedRelay?: () => FeedRelayHealth;
  stop(): Promise<void>;
}

const HOUR = 3_600_000;
const PRESENCE_CHECK_MS = 30_000;
const RETENTION_EVERY_MS = 60_000;
const STATEMENTS_CLOSE_EVERY_MS = 60_000;
/** D42: how often the deadlines of weighings waiting for a decision are checked. */
const WEIGHING_DEADLINES_EVERY_MS = 2_000;
/** D43: how often due pauses are ended (readers already treat a pause past its end as over). */
const PAUSE_SWEEP_MS = 5_000;

/**
 * D43: one pass of the pause sweep: products, then stores; D44: scheduled orders not confirmed
 * within their merchant's confirmWithinMinutes are cancelled in the same pass.
 */
export async function endDuePauses(services: Pick<Services, 'catalog' | 'merchants' | 'orders'>): Promise<number> {
  return (
    (await services.catalog.availability.endDuePauses()) +
    (await services.merchants.endDuePauses()) +
    (await services.orders.cancelUnconfirmedScheduled())
  );
}

/** Background work of one process (`--role worker` or `all`). Each worker is stoppable. */
export async function startWorkers(services: Services): Promise<RunningWorkers> {
  const stops: Array<() => Promise<void>> = [];

  /** A task run every `ms`, its failures reported; cleared with the other stops. */
  const every = (ms: number, task: () => Promise<unknown>, onError: (error: unknown) => void) => {
    const timer = setInterval(() => {
      task().catch(onError);
    }, ms);
    stops.push(async () => clearInterval(timer));
    return timer;
  };

  // Housekeeping: revocation rows outlive every token they could concern by at most a day.
  every(
    HOUR,
    () => services.auth.pruneRevocations(),
    () => {},
  ).unref();

  // Retention (D30): a few seconds of small batches every minute, in every worker process (the
  // batches of several workers do not collide: each statement picks its own rows).
  every(
    RETENTION_EVERY_MS,
    () => traced('retention pass', () => services.retention.runOnce()),
    throttledReport('retention'),
  );

  // D45: statements whose period ended are closed. Every worker process may run it: a closing
  // locks its statements FOR UPDATE SKIP LOCKED, so each is closed exactly once.
  // A worker (re)started after its periods ended closes them at once, not a minute later.
  const reportStatements = throttledReport('statements');
  services.statements.closeDue().catch(reportStatements);
  every(STATEMENTS_CLOSE_EVERY_MS, () => services.statements.closeDue(), reportStatements);

  // The embedded database has no autovacuum: statistics and free space are kept up here.
  const upkeep = startEmbeddedUpkeep(services.db, { onError: throttledReport('embedded database upkeep') });
  stops.push(() => upkeep.stop());

  // Webhook endpoints failing longer than CLEAVER_WEBHOOK_DISABLE_AFTER_HOURS are disabled.
  every(RETENTION_EVERY_MS, () => services.webhooks.disableLongFailing(), throttledReport('webhook health'));

  // POS presence (opt-in, CLEAVER_PRESENCE_AUTO_UNAVAILABLE_SEC): switch silent merchants off and
  // back on. Every worker process may run it; each switch is a compare-and-set.
  if (services.config.presence.autoUnavailableAfterSec > 0) {
    every(
      PRESENCE_CHECK_MS,
      () => traced('presence switch pass', () => services.usage.applyPresenceSwitch()),
      throttledReport('presence'),
    );
  }

  // D36: presence changes on the platform feed (`merchant PRESENCE_CHANGED`). Every worker process
  // may run it; each announcement is a compare-and-set in the item's transaction.
  every(
    PRESENCE_CHECK_MS,
    () => traced('presence feed pass', () => services.usage.announcePresenceChanges()),
    throttledReport('presence feed'),
  );

  // D42: a weighing whose deadline passed takes the merchant's default. Every worker process may
  // run it: each decision is a compare-and-set, and the one that lost skips the weighing.
  every(WEIGHING_DEADLINES_EVERY_MS, () => services.orders.decideDueWeighings(), throttledReport('weighing deadlines'));

  // D43: timed pauses of products and stores end by themselves. Every worker process may run it:
  // each product's end is taken with SKIP LOCKED and each store's is a compare-and-set.
  every(PAUSE_SWEEP_MS, () => endDuePauses(services), throttledReport('pauses'));

  // Catalog uploads (D16): woken by NOTIFY, by the earliest lease expiry, and a slow sweep.
  await services.catalog.worker.start();
  stops.push(() => services.catalog.worker.stop());
  // Webhook delivery (D11): woken by NOTIFY, plus a timer for the next due retry.
  await services.webhooks.start();
  stops.push(() => services.webhooks.stop());

  // D36: the platform feed. Its stamper follows commits in every worker; with a broker, the
  // relay publishes to NATS JetStream. Without one nothing else is needed: readers use HTTP.
  await services.feed.start();
  stops.push(() => services.feed.stop());
  const config = services.config;
  const relay = config.natsUrl
    ? createFeedRelay({
        db: services.db,
        clock: services.clock,
        url: config.natsServers,
        stream: config.natsStream,
        replicas: config.natsReplicas,
        stamp: services.feed.stamp,
        // D46: one warning line per outage of the database or of NATS, not one per failed pass.
        onError: (error) => {
          if (!reportDatabaseOutage(error, 'the feed relay'))
            reportOutage('nats', publishProblem(error), 'the feed relay');
        },
        onWarning: (line) => process.stderr.write(`cleaver: warning: ${line}\n`),
        registry: services.metrics.registry,
      })
    : undefined;
  if (relay) {
    const unsubscribe = services.feed.onStamped(() => relay.poke());
    await relay.start();
    // Stopped before the feed's stamper (stops run together; the relay's last pass may stamp).
    stops.unshift(async () => {
      unsubscribe();
      await relay.stop();
    });
  }

  return {
    feedRelay: relay ? () => relay.health() : undefined,
    health: () => [services.catalog.worker.health(), services.webhooks.health()],
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
