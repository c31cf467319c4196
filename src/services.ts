import type { Config } from './config.js';
import type { Db } from './db/db.js';
import type { Clock } from './lib/clock.js';
import { createAuthService } from './modules/auth/auth-service.js';
import { createCatalogService } from './modules/catalog/index.js';
import { createEventsService, type EventListener } from './modules/events/index.js';
import { createLogisticsAppsService } from './modules/logistics/logistics-apps-service.js';
import { createLogisticsService } from './modules/logistics/logistics-service.js';
import { createMerchantsService } from './modules/merchants/merchants-service.js';
import { createOrdersService } from './modules/orders/index.js';
import { createWebhooksService } from './modules/webhooks/index.js';
import { createMetrics } from './plugins/metrics.js';

export interface CoreDeps {
  config: Config;
  db: Db;
  clock: Clock;
}

/** Every use-case service, wired by hand (no container): the one place that shows who needs what. */
export function createServices(deps: CoreDeps) {
  const { config, db, clock } = deps;
  const metrics = createMetrics();
  const auth = createAuthService({ db, config, clock });
  const merchants = createMerchantsService({ db, clock, auth, env: config.env });
  const logisticsApps = createLogisticsAppsService({ db, clock, auth });
  const catalog = createCatalogService({
    db,
    clock,
    merchantCacheTtlSec: config.merchantCacheTtlSec,
    pullHttpsOnly: config.env === 'production',
    // D20: the catalog module sees the registered POS endpoint only through this function.
    getMerchantUrl: async (merchantId) => {
      const m = await merchants.findMerchant(merchantId);
      return m ? merchants.integrationConfig(m).getMerchantURL : null;
    },
  });
  const webhooks = createWebhooksService({ db, clock, config, auth, registry: metrics.registry });
  // Fan-out beyond polling: called inside each event's recording transaction (outbox, D10).
  const eventListeners: EventListener[] = [webhooks.enqueueForEvent];
  const events = createEventsService({ db, clock, config, listeners: eventListeners });
  const orders = createOrdersService({ db, clock, config, events, merchants });
  const logistics = createLogisticsService({ db, clock, orders });
  return {
    ...deps,
    metrics,
    auth,
    merchants,
    logisticsApps,
    catalog,
    webhooks,
    eventListeners,
    events,
    orders,
    logistics,
  };
}

export type Services = ReturnType<typeof createServices>;
