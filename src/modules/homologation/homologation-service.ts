// Homologation runs (operator-api.md#homologation): plays the sandbox scenarios against a key's
// merchant, injects a 401, a 429 and a 503 into the key's own requests, sends a webhook twice
// with one webhook-id and once with a wrong signature, makes the next catalog upload FAIL, then
// grades what the observer saw (criteria.ts) and keeps the signed report. Sandbox only (D25).
// Each run lives in the process that started it (its timers and observations); runs of
// different keys never share anything but the database.
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { firstRow } from '../../lib/first-row.js';
import { newId } from '../../lib/ids.js';
import type { AuthService, Principal } from '../auth/index.js';
import type { EventsService } from '../events/index.js';
import type { SandboxService } from '../sandbox/index.js';
import { type DeliveryView, signWebhook, type WebhooksService } from '../webhooks/index.js';
import { allRequiredPass, type Criterion, grade, pendingCriteria } from './criteria.js';
import * as repo from './homologation-repository.js';
import { resolveTimings, shortRunWarnings, type Timings } from './homologation-timings.js';
import type { ActiveRun, Observer, PlacedOrder } from './observer.js';
import type { ReportSigner } from './report-signing.js';

/** The scenarios a run plays, in this order (sandbox scenarios.ts). */
export const RUN_SCENARIOS = [
  'delivery-instant',
  'customer-cancellation',
  'takeout',
  'late-customer-cancellation',
  'cash-with-change',
  'pickup-area-assigned',
  'kg-items',
  'delivery-scheduled',
  'platform-cancellation',
] as const;

export const CATALOG_FAIL_REASON =
  'Sandbox homologation: this upload is made to FAIL on purpose; fix and send again only on a change, never in a loop (spec 3.2)';

export interface HomologationDeps {
  db: Db;
  clock: Clock;
  appId: string;
  observer: Observer;
  signer: ReportSigner;
  sandbox: Pick<SandboxService, 'play' | 'kgLinesOf'>;
  auth: Pick<AuthService, 'listIntegrationKeys'>;
  events: Pick<EventsService, 'poll'>;
  webhooks: Pick<WebhooksService, 'listMerchantDeliveries' | 'retryDelivery'>;
  env?: Record<string, string | undefined>;
  onError?: (error: unknown, runId: string) => void;
}

export interface RunReport {
  id: string;
  keyId: string;
  merchantId: string;
  status: repo.RunStatus;
  startedAt: string;
  finishedAt?: string;
  timings: Timings;
  /** Said when the run is too short for its own steps (a failure may only reflect that). */
  warnings?: string[];
  orders: repo.RunRow['orders'];
  criteria: Criterion[];
  signature?: string;
}

export const runNotFound = () => notFound('Homologation run not found');

function warningsOf(timings: Timings): { warnings?: string[] } {
  const warnings = shortRunWarnings(timings, RUN_SCENARIOS.length);
  return warnings.length > 0 ? { warnings } : {};
}

function toReport(row: repo.RunRow): RunReport {
  return {
    id: row.id,
    keyId: row.key_id,
    merchantId: row.merchant_id,
    status: row.status,
    startedAt: row.started_at.toISOString(),
    ...(row.finished_at ? { finishedAt: row.finished_at.toISOString() } : {}),
    timings: row.timings,
    ...warningsOf(row.timings),
    orders: row.orders,
    criteria: row.status === 'RUNNING' ? pendingCriteria() : row.criteria,
    ...(row.signature ? { signature: row.signature } : {}),
  };
}

export function createHomologationService(deps: HomologationDeps) {
  const { db, clock, observer } = deps;
  const now = () => clock.now().getTime();
  const timers = new Map<string, NodeJS.Timeout[]>();
  const sleep = (run: ActiveRun, ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      timers.get(run.id)?.push(t);
    });

  async function play(run: ActiveRun): Promise<void> {
    // The POS shows up first (its first request), so deadlines do not run before it is there.
    const waitUntil = now() + Math.min(run.timings.waitForPosMs, run.timings.durationMs / 2);
    while (run.requests.length === 0 && now() < waitUntil && observer.active.has(run.keyId)) await sleep(run, 100);
    for (const scenario of RUN_SCENARIOS) {
      if (!observer.active.has(run.keyId)) return;
      try {
        const played = await deps.sandbox.play(run.merchantId, scenario);
        // The run may have finished (and signed its report) while this order was being placed:
        // it is then a sandbox order outside the run, and the signed report stays as signed.
        if (observer.active.get(run.keyId) !== run) return;
        const o = firstRow(played.orders, 'orders of a sandbox play'); // play places exactly one
        const placed: PlacedOrder = {
          id: o.id.toLowerCase(),
          scenario,
          type: o.type,
          deliveryCode: o.deliveryCode,
          placedAt: now(),
          events: played.events.map((e) => ({ eventType: e.eventType, at: Date.parse(e.createdAt) })),
          kgLines: await deps.sandbox.kgLinesOf(o.id),
        };
        run.orders.push(placed);
        await repo.setOrders(
          db,
          run.id,
          run.orders.map((x) => ({ orderId: x.id, scenario: x.scenario, deliveryCode: x.deliveryCode })),
        );
      } catch (error) {
        deps.onError?.(error, run.id);
      }
      await sleep(run, run.timings.scenarioSpacingMs);
    }
    // The injected answers come once every order is out, so they hit the POS at work.
    run.nextInjectionAt = now();
    await probeWebhooks(run);
  }

  const runDeliveries = async (run: ActiveRun) =>
    (await deps.webhooks.listMerchantDeliveries(run.merchantId, { limit: 200 })).items.filter((d) =>
      run.orders.some((o) => o.id === d.orderId.toLowerCase()),
    );

  /** The same webhook again (same webhook-id), and a forged one with a wrong signature. */
  async function probeWebhooks(run: ActiveRun): Promise<void> {
    const deliveries = await runDeliveries(run);
    const created = deliveries.find((d) => d.eventType === 'CREATED' && d.status === 'DELIVERED') ?? deliveries[0];
    if (!created?.target) return;
    if (created.status === 'DELIVERED') {
      try {
        await deps.webhooks.retryDelivery(created.id);
        run.probes.push({
          kind: 'repeated',
          at: now(),
          webhookId: created.webhookId,
          orderId: created.orderId,
          eventType: created.eventType,
          status: null,
        });
      } catch (error) {
        deps.onError?.(error, run.id);
      }
    }
    const webhookId = newId();
    const body = JSON.stringify(created.event);
    const headers = signWebhook({
      appId: deps.appId,
      merchantId: run.merchantId,
      webhookId,
      timestampSec: Math.floor(now() / 1000),
      body,
      secret: `wrong-${newId()}`,
    });
    const probe = {
      kind: 'wrong-signature' as const,
      at: now(),
      webhookId,
      orderId: created.orderId,
      eventType: created.eventType,
      status: null as number | null,
      error: undefined as string | undefined,
    };
    try {
      const answer = await fetch(created.target, { method: 'POST', headers, body, signal: AbortSignal.timeout(5_000) });
      probe.status = answer.status;
      await answer.body?.cancel();
    } catch (error) {
      probe.error = (error as Error).message;
    }
    run.probes.push(probe);
  }

  /** The repeated webhook's answer: the attempt the webhook worker made after the probe. */
  function repeatedAnswer(run: ActiveRun, deliveries: DeliveryView[]): void {
    for (const p of run.probes.filter((x) => x.kind === 'repeated')) {
      const d = deliveries.find((x) => x.webhookId === p.webhookId);
      const attempt = d?.attempts.filter((a) => Date.parse(a.at) >= p.at - 1000).at(-1);
      p.status = attempt?.statusCode ?? null;
      if (!attempt) p.error = 'not attempted yet';
    }
  }

  async function finish(run: ActiveRun): Promise<void> {
    for (const t of timers.get(run.id) ?? []) clearTimeout(t);
    timers.delete(run.id);
    observer.stop(run.keyId);
    const row = await repo.findRun(db, run.id);
    if (row?.status !== 'RUNNING') return;
    const deliveries = await runDeliveries(run);
    repeatedAnswer(run, deliveries);
    const startedAt = row.started_at.getTime();
    const answersWebhooks = deliveries.some((d) =>
      d.attempts.some((a) => a.statusCode !== null && a.statusCode < 300 && Date.parse(a.at) >= startedAt),
    );
    const principal = {
      keyId: run.keyId,
      merchantId: run.merchantId,
      jti: '',
      expiresAt: 0,
      profile: 'cleaver',
    } as Principal;
    const ids = new Set(run.orders.map((o) => o.id));
    const pending = (await deps.events.poll(principal, {})).filter((e) => ids.has(e.orderId.toLowerCase()));
    const finishedAt = now();
    const criteria = grade({
      startedAt,
      finishedAt,
      timings: run.timings,
      requests: run.requests,
      probes: run.probes,
      orders: run.orders,
      unacknowledged: pending.map((e) => ({ orderId: e.orderId, eventType: e.eventType, at: Date.parse(e.createdAt) })),
      answersWebhooks,
      catalogFailedAt: row.catalog_failed_at?.getTime(),
    });
    const status = allRequiredPass(criteria) ? 'PASSED' : 'FAILED';
    const at = new Date(finishedAt);
    const report = toReport({ ...row, status, finished_at: at, criteria, signature: null });
    const signature = deps.signer.sign(report as unknown as Record<string, unknown>);
    await repo.finishRun(db, { id: run.id, status, at, criteria, signature, orders: row.orders });
  }

  return {
    /** POST …/homologations: 201 RUNNING; 409 while the key has a RUNNING run. */
    async start(merchantId: string, keyId: string, overrides?: Partial<Timings>): Promise<RunReport> {
      const keys = await deps.auth.listIntegrationKeys(merchantId);
      if (!keys.some((k) => k.id === keyId)) throw notFound('Integration key not found');
      const timings = resolveTimings(overrides, deps.env);
      const at = clock.now();
      const live = observer.runOfKey(keyId);
      await repo.cancelStaleRuns(db, keyId, at, live ? [live.id] : []);
      const id = newId();
      if (!(await repo.insertRun(db, { id, keyId, merchantId, timings, at }))) {
        throw conflict('This integration key already has a RUNNING homologation run');
      }
      const run: ActiveRun = {
        id,
        keyId,
        merchantId,
        startedAt: at.getTime(),
        timings,
        requests: [],
        probes: [],
        orders: [],
        injections: [401, 429, 503],
        nextInjectionAt: Number.POSITIVE_INFINITY,
      };
      observer.start(run);
      timers.set(id, []);
      const fail = (error: unknown) => deps.onError?.(error, id);
      play(run).catch(fail);
      timers.get(id)?.push(setTimeout(() => finish(run).catch(fail), timings.durationMs));
      return this.get(id);
    },

    async get(id: string): Promise<RunReport> {
      const row = await repo.findRun(db, id);
      if (!row) throw runNotFound();
      return toReport(row);
    },

    /** GET /v1/homologations/{id}: another key's run is indistinguishable from a missing one (D21). */
    async getForKey(id: string, keyId: string): Promise<RunReport> {
      const row = await repo.findRun(db, id);
      if (!row || row.key_id !== keyId) throw runNotFound();
      return toReport(row);
    },

    async listForKey(merchantId: string, keyId: string): Promise<RunReport[]> {
      const [keys, rows] = await Promise.all([deps.auth.listIntegrationKeys(merchantId), repo.listKeyRuns(db, keyId)]);
      const own = rows.filter((r) => r.merchant_id === merchantId);
      // A deleted key keeps its reports; a key of another merchant is not found (D21).
      if (!keys.some((k) => k.id === keyId) && own.length === 0) throw notFound('Integration key not found');
      return own.map(toReport);
    },

    listForMerchant: async (merchantId: string) => (await repo.listMerchantRuns(db, merchantId)).map(toReport),

    /** Every key's runs, newest first (the console's homologation page). */
    listRecent: async (filter: { merchantId?: string; status?: string; limit: number }) =>
      (await repo.listRecentRuns(db, filter)).map(toReport),

    /** The catalog worker's question (spec 3.2): make this upload FAIL? */
    async catalogFailure(merchantId: string): Promise<string | null> {
      return (await repo.takeCatalogFailure(db, merchantId, clock.now())) ? CATALOG_FAIL_REASON : null;
    },

    signingKey: () => ({ algorithm: deps.signer.algorithm, publicKey: deps.signer.publicKeyPem }),

    /** Process shutdown: timers cleared, running runs of this process CANCELLED. */
    async stop(): Promise<void> {
      for (const run of [...observer.active.values()]) {
        for (const t of timers.get(run.id) ?? []) clearTimeout(t);
        timers.delete(run.id);
        observer.stop(run.keyId);
        await repo
          .finishRun(db, {
            id: run.id,
            status: 'CANCELLED',
            at: clock.now(),
            criteria: pendingCriteria(),
            signature: null,
          })
          .catch(() => {});
      }
    },
  };
}

export type HomologationService = ReturnType<typeof createHomologationService>;
