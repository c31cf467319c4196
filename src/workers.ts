import type { Services } from './services.js';

export interface RunningWorkers {
  stop(): Promise<void>;
}

const HOUR = 3_600_000;

/** Background work of one process (`--role worker` or `all`). Each worker is stoppable. */
export async function startWorkers(services: Services): Promise<RunningWorkers> {
  const stops: Array<() => Promise<void>> = [];

  // Housekeeping: revocation rows outlive every token they could concern by at most a day.
  const prune = setInterval(() => {
    services.auth.pruneRevocations().catch(() => {});
  }, HOUR).unref();
  stops.push(async () => clearInterval(prune));

  // Catalog uploads (D16): woken by NOTIFY, with a slow sweep for expired leases.
  await services.catalog.worker.start();
  stops.push(() => services.catalog.worker.stop());
  // Webhook delivery (D11): woken by NOTIFY, plus a timer for the next due retry.
  await services.webhooks.start();
  stops.push(() => services.webhooks.stop());

  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
