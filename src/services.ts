import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { tracedDb } from './db/traced-db.js';
import { throttledReport } from './jobs/throttled-report.js';
import type { Clock } from './lib/clock.js';
import type { LookupFn } from './lib/net/address-guard.js';
import { tracingOn } from './lib/tracing.js';
import { createAuthService } from './modules/auth/index.js';
import { createCatalogService } from './modules/catalog/index.js';
import { createEventsService, type EventListener } from './modules/events/index.js';
import { createFeedService } from './modules/feed/index.js';
import {
  createHomologationService,
  createObserver,
  createReportSigner,
  type HomologationService,
} from './modules/homologation/index.js';
import { createLogisticsAppsService, createLogisticsService } from './modules/logistics/index.js';
import { createMerchantsService } from './modules/merchants/index.js';
import { createNoticesService } from './modules/notices/index.js';
import {
  createAuditService,
  createLoginThrottle,
  createOperatorsService,
  createSessionsService,
} from './modules/operators/index.js';
import { createOrdersService, type WeighingListener } from './modules/orders/index.js';
import { createRetention } from './modules/retention/index.js';
import { createSandboxService } from './modules/sandbox/index.js';
import { createStatementsService } from './modules/statements/index.js';
import { createRequestLog, createUsageRecorder, createUsageService } from './modules/usage/index.js';
import { createWebhooksService } from './modules/webhooks/index.js';
import { createMetrics } from './plugins/metrics.js';

export interface CoreDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** DNS resolution for every outbound connection to a merchant's address (tests: a fake resolver). */
  lookup?: LookupFn;
  /**
   * One more listener of every recorded event, in its transaction, beside the webhooks and the
   * feed (tests observe webhook-only events this way). Given at construction: the fan-out's list
   * is fixed once the services exist.
   */
  onEvent?: EventListener;
  /** Likewise for each weighing (D38), in its transaction beside the feed's. */
  onWeighed?: WeighingListener;
}

/** Every use-case service, wired by hand (no container): the one place that shows who needs what. */
export function createServices(deps: CoreDeps) {
  const { config, clock } = deps;
  // Tracing (src/lib/tracing.ts): a span per statement on both databases, only while it is on.
  const db = tracingOn() ? tracedDb(deps.db) : deps.db;
  const metrics = createMetrics();
  // Set below, in the sandbox only; the catalog worker asks it through a function (D25).
  let homologation: HomologationService | undefined;
  // Watches the requests of keys under homologation; an empty map costs the hooks one check.
  const homologationObserver = createObserver(() => clock.now().getTime());
  // D36: the platform feed's outbox; every module below that changes something it reports takes
  // its recorder and calls it inside the change's transaction.
  const feed = createFeedService({ db, clock, maxWaitSec: config.feedMaxWaitSec });
  const auth = createAuthService({ db, config, clock });
  const merchants = createMerchantsService({
    db,
    clock,
    auth,
    env: config.env,
    lookup: deps.lookup,
    feed: feed.record,
  });
  const logisticsApps = createLogisticsAppsService({ db, clock, auth, merchants });
  const catalog = createCatalogService({
    db,
    clock,
    merchantCacheTtlSec: config.merchantCacheTtlSec,
    production: config.env === 'production',
    lookup: deps.lookup,
    leaseMs: config.catalogLeaseSec * 1000,
    // D20: the catalog module sees the registered POS endpoint only through this function.
    getMerchantUrl: async (merchantId) => {
      const m = await merchants.findMerchant(merchantId);
      return m ? merchants.integrationConfig(m).getMerchantURL : null;
    },
    // The merchant's row (status, store id) is written by the merchants module (spec 4.3, D29).
    merchants,
    // Sandbox homologation: a run makes the merchant's next upload FAIL (operator-api.md#homologation).
    forcedFailure: (merchantId) => (homologation ? homologation.catalogFailure(merchantId) : Promise.resolve(null)),
    feed: feed.record,
  });
  const notices = createNoticesService({ db });
  const webhooks = createWebhooksService({
    db,
    clock,
    config,
    auth,
    registry: metrics.registry,
    lookup: deps.lookup,
    notices,
    disableAfterHours: config.webhookDisableAfterHours,
    feed: feed.record,
  });
  // Fan-out beyond polling: called inside each event's recording transaction (outbox, D10).
  // D45: an order that concludes is counted in its merchant's statement, in the same transaction.
  const statements = createStatementsService({ db, clock, feed: feed.recordAll });
  const eventListeners: EventListener[] = [webhooks.enqueueForEvent, feed.onOrderEvent, statements.onOrderEvent];
  if (deps.onEvent) eventListeners.push(deps.onEvent);
  const events = createEventsService({ db, clock, config, listeners: eventListeners, notices });
  // D38: called inside each weighing's transaction, as eventListeners are for events (the
  // platform feed's `order WEIGHED` item, D36).
  const weighingListeners: WeighingListener[] = [feed.onWeighed];
  if (deps.onWeighed) weighingListeners.push(deps.onWeighed);
  const orders = createOrdersService({
    db,
    clock,
    config,
    events,
    merchants,
    weighingListeners,
    feed: feed.record,
    stock: catalog.availability,
  });
  const logistics = createLogisticsService({ db, clock, orders, feed: feed.record });
  const usageRecorder = createUsageRecorder({ db, clock, onError: throttledReport('usage') });
  // The request log: what each key's requests were, for the POS (GET /v1/developer/requests) and operators.
  // A batch the database refuses is written again with the next one (D46, modules/usage/request-log.ts).
  const requestLog = createRequestLog({ db, clock, onError: throttledReport('request-log') });
  const usage = createUsageService({
    db,
    clock,
    presence: config.presence,
    merchants,
    lastTokenAt: (keyIds) => auth.lastTokenTimes(keyIds),
    registry: metrics.registry,
    feed: feed.record,
  });
  // Operator accounts, console sessions, login lockout and the audit log (docs/security.md).
  const operators = createOperatorsService({ db, clock, config });
  const sec = config.operatorSecurity;
  const operatorSessions = createSessionsService({
    db,
    clock,
    adminToken: config.adminToken,
    limits: { idleSec: sec.sessionIdleSec, maxSec: sec.sessionMaxSec },
    operators,
    throttle: createLoginThrottle({
      db,
      clock,
      limits: {
        accountMaxFailures: sec.loginMaxFailures,
        ipMaxFailures: sec.loginIpMaxFailures,
        lockoutSec: sec.loginLockoutSec,
        maxLockoutSec: sec.loginLockoutMaxSec,
      },
    }),
  });
  const audit = createAuditService({ db, clock });
  const retention = createRetention({
    clock,
    config: config.retention,
    events,
    orders,
    webhooks,
    logistics,
    catalog,
    usage,
    feed,
    requestLog,
    registry: metrics.registry,
  });
  // D25: scenarios exist only in the sandbox.
  const sandbox =
    config.env === 'sandbox'
      ? createSandboxService({ clock, merchants, catalog, orders, events, logistics, logisticsApps })
      : undefined;
  if (sandbox) {
    homologation = createHomologationService({
      db,
      clock,
      appId: config.appId,
      observer: homologationObserver,
      signer: createReportSigner(config.secretKey),
      sandbox,
      auth,
      events,
      webhooks,
      onError: throttledReport('homologation'),
      env: config.homologationTimingEnv,
    });
  }
  return {
    ...deps,
    db,
    sandbox,
    homologation,
    homologationObserver,
    retention,
    feed,
    notices,
    metrics,
    auth,
    merchants,
    logisticsApps,
    catalog,
    webhooks,
    events,
    orders,
    logistics,
    usageRecorder,
    requestLog,
    usage,
    operators,
    operatorSessions,
    audit,
    statements,
  };
}

export type Services = ReturnType<typeof createServices>;
