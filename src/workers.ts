import { startEmbeddedUpkeep } from './db/embedded-upkeep.js';
import type { WorkerHealth } from './jobs/leased-worker.js';
import { throttledReport } from './jobs/throttled-report.js';
import { createFeedRelay, type FeedRelayHealth } from './modules/feed/index.js';
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

/** Background work of one process (`--role worker` or `all`). Each worker is stoppable. */
export async function startWorkers(services: Services): Promise<RunningWorkers> {
  const stops: Array<() => Promise<void>> = [];

  // Housekeeping: revocation rows outlive every token they could concern by at most a day.
  const prune = setInterval(() => {
    services.auth.pruneRevocations().catch(() => {});
  }, HOUR).unref();
  stops.push(async () => clearInterval(prune));

  // Retention (D30): a few seconds of small batches every minute, in every worker process (the
  // batches of several workers do not collide: each statement picks its own rows).
  const report = throttledReport('retention');
  const retention = setInterval(() => {
    services.retention.runOnce().catch(report);
  }, RETENTION_EVERY_MS);
  stops.push(async () => clearInterval(retention));

  // The embedded database has no autovacuum: statistics and free space are kept up here.
  const upkeep = startEmbeddedUpkeep(services.db, { onError: throttledReport('embedded database upkeep') });
  stops.push(() => upkeep.stop());

  // Webhook endpoints failing longer than CLEAVER_WEBHOOK_DISABLE_AFTER_HOURS are disabled.
  const reportHealth = throttledReport('webhook health');
  const endpointCheck = setInterval(() => {
    services.webhooks.disableLongFailing().catch(reportHealth);
  }, RETENTION_EVERY_MS);
  stops.push(async () => clearInterval(endpointCheck));

  // POS presence (opt-in, CLEAVER_PRESENCE_AUTO_UNAVAILABLE_SEC): switch silent merchants off and
  // back on. Every worker process may run it; each switch is a compare-and-set.
  if (services.config.presence.autoUnavailableAfterSec > 0) {
    const reportPresence = throttledReport('presence');
    const presence = setInterval(() => {
      services.usage.applyPresenceSwitch().catch(reportPresence);
    }, PRESENCE_CHECK_MS);
    stops.push(async () => clearInterval(presence));
  }

  // D36: presence changes on the platform feed (`merchant PRESENCE_CHANGED`). Every worker process
  // may run it; each announcement is a compare-and-set in the item's transaction.
  const reportAnnounce = throttledReport('presence feed');
  const announce = setInterval(() => {
    services.usage.announcePresenceChanges().catch(reportAnnounce);
  }, PRESENCE_CHECK_MS);
  stops.push(async () => clearInterval(announce));

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
        url: config.natsUrl,
        stream: config.natsStream,
        stamp: services.feed.stamp,
        onError: throttledReport('feed relay'),
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
