// Plays a sandbox scenario (scenarios.ts) for a merchant: places the order through the orders
// service as the operator API does, then plays the platform's side through the same services
// the operator routes and the logistics partner's signed requests use, so that everything the
// POS sees (events, polling receipts, webhooks, the operator's timeline) is what production
// would produce. Sandbox only (D25): app.ts registers its routes only there.
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { CatalogService } from '../catalog/index.js';
import { type EventsService, type OrderEventType, orderNotFound } from '../events/index.js';
import type { LogisticsAppsService, LogisticsService } from '../logistics/index.js';
import type { MerchantsService } from '../merchants/index.js';
import type { OrderRow, OrdersService } from '../orders/index.js';
import type { ScenarioPlayed, ScenarioSummary } from './sandbox-schemas.js';
import { planOrder } from './scenario-plan.js';
import {
  findScenario,
  promisedEvents,
  SCENARIO_NAMES,
  SCENARIOS,
  type ScenarioStep,
  stepsToPlay,
} from './scenarios.js';

/** The logistics partner the sandbox plays (one per merchant, created on first use). */
export const SANDBOX_LOGISTICS_APP_NAME = 'Cleaver sandbox logistics';

export interface SandboxDeps {
  clock: Clock;
  merchants: Pick<MerchantsService, 'requireMerchant'>;
  catalog: Pick<CatalogService, 'getMerchantRecord'>;
  orders: Pick<OrdersService, 'createOrder' | 'getAnyOrder' | 'customerCancellation' | 'platformEvent'>;
  events: Pick<EventsService, 'timeline'>;
  logistics: Pick<LogisticsService, 'receiveDeliveryUpdate'>;
  logisticsApps: Pick<LogisticsAppsService, 'listApps' | 'createApp'>;
}

export interface PlayOptions {
  orderId?: string;
}

export function createSandboxService(deps: SandboxDeps) {
  const { clock, orders, events } = deps;

  async function sandboxLogisticsApp(merchantId: string): Promise<string> {
    const apps = await deps.logisticsApps.listApps();
    const found = apps.find(
      (a) => a.active && a.name === SANDBOX_LOGISTICS_APP_NAME && a.merchant_ids.includes(merchantId),
    );
    if (found) return found.id;
    return (await deps.logisticsApps.createApp({ name: SANDBOX_LOGISTICS_APP_NAME, merchantIds: [merchantId] })).appId;
  }

  /** A signed deliveryUpdate as the partner sends it (spec 4.14), handed to the logistics service. */
  async function logisticsUpdate(
    order: OrderRow,
    deliveryId: string,
    step: Extract<ScenarioStep, { kind: 'logistics' }>,
  ): Promise<void> {
    const appId = await sandboxLogisticsApp(order.merchant_id);
    const body = {
      deliveryId,
      orderId: order.id,
      orderDisplayId: order.display_id,
      merchant: { id: order.merchant_id, name: order.document.merchant.name },
      event: { type: step.eventType, message: step.message, datetime: clock.now().toISOString() },
      customerName: order.document.customer.name,
      deliveryPerson: { name: 'Entregador Sandbox' },
    };
    // The logistics service keys replays on the sha256 of the signed bytes: these are the bytes.
    const bodySha256 = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    await deps.logistics.receiveDeliveryUpdate({ appId, merchantId: order.merchant_id, bodySha256 }, body);
  }

  async function playStep(order: OrderRow, deliveryId: string, step: ScenarioStep): Promise<void> {
    switch (step.kind) {
      case 'logistics':
        return logisticsUpdate(order, deliveryId, step);
      case 'customerCancellation':
        await orders.customerCancellation(order.id, { reason: step.reason });
        return;
      case 'platformEvent':
        await orders.platformEvent(order.id, {
          eventType: step.eventType,
          pickupArea: step.pickupArea,
          reason: step.reason,
          code: step.code,
        });
        return;
    }
  }

  return {
    /** 404 `Merchant not found` for an unknown merchant (the operator routes). */
    async requireMerchant(merchantId: string): Promise<void> {
      await deps.merchants.requireMerchant(merchantId);
    },

    /**
     * The delivery code the sandbox's customer tells the courier at the door (spec 4.11). A
     * marketplace never puts it in the order the POS reads (that would defeat the check): in
     * production the person handing over types what the customer says. The sandbox has no
     * customer, so the POS asks this route instead, with its own token and for its own orders
     * only (another merchant's order is not found, D21).
     */
    async customerDeliveryCode(merchantId: string, orderId: string) {
      const order = await orders.getAnyOrder(orderId);
      if (order.merchant_id !== merchantId) throw orderNotFound();
      return { orderId: order.id, customerDeliveryCode: order.delivery_code };
    },

    /** D38: the indexes of an order's lines sold by KG (what a POS weighs; homologation grades it). */
    async kgLinesOf(orderId: string): Promise<number[]> {
      const order = await orders.getAnyOrder(orderId);
      return order.document.items.flatMap((item, index) => (item.unit === 'KG' ? [index] : []));
    },

    /** GET …/sandbox/scenarios: every scenario with what it raises. */
    listScenarios(): Array<Static<typeof ScenarioSummary>> {
      return SCENARIOS.map((s) => ({
        name: s.name,
        description: s.description,
        events: promisedEvents(s),
        appliesToExistingOrder: stepsToPlay(s, true).length > 0,
        existingOrderEvents: promisedEvents(s, true),
      }));
    },

    /** POST …/sandbox/scenarios: plays one and says what it created, so scripts can chain. */
    async play(merchantId: string, name: string, options: PlayOptions = {}): Promise<Static<typeof ScenarioPlayed>> {
      const scenario = findScenario(name);
      if (!scenario) throw badRequest(`scenario must be one of ${SCENARIO_NAMES.join(', ')}`);
      await deps.merchants.requireMerchant(merchantId);
      const existing = options.orderId !== undefined;
      const steps = stepsToPlay(scenario, existing);

      let order: OrderRow;
      let before = new Set<string>();
      if (options.orderId !== undefined) {
        if (steps.length === 0) {
          throw badRequest(`options.orderId does not apply to scenario ${name}: it places a new order`);
        }
        order = await orders.getAnyOrder(options.orderId);
        // D21: another merchant's order is indistinguishable from a missing one.
        if (order.merchant_id !== merchantId) throw orderNotFound();
        before = new Set((await events.timeline(order.id)).map((e) => e.occurrenceId));
      } else {
        const record = await deps.catalog.getMerchantRecord(merchantId);
        order = await orders.createOrder(merchantId, planOrder(scenario, record.products, clock.now()));
      }

      // One delivery per play: the partner's updates on this order share its deliveryId.
      const deliveryId = newId();
      for (const step of steps) await playStep(order, deliveryId, step);

      const final = await orders.getAnyOrder(order.id);
      const raised = (await events.timeline(order.id)).filter((e) => !before.has(e.occurrenceId));
      return {
        scenario: scenario.name,
        merchantId,
        orders: [
          {
            id: final.id,
            displayId: final.display_id,
            type: final.type,
            orderTiming: final.document.orderTiming,
            status: final.status,
            lastEvent: final.last_event,
            created: !existing,
            orderAmount: Number(final.order_amount),
            deliveryCode: final.delivery_code,
          },
        ],
        events: raised.map((e) => ({
          orderId: final.id,
          eventType: e.eventType as OrderEventType,
          createdAt: e.createdAt,
          polled: e.polled,
        })),
      };
    },
  };
}

export type SandboxService = ReturnType<typeof createSandboxService>;
