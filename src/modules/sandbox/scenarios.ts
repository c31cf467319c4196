// The sandbox scenarios as data (style.md#a-module): what order each one places and what the
// platform side does to it afterwards. Playing them is sandbox-service.ts; turning one into a
// concrete order body is the pure scenario-plan.ts. A later homologation feature reuses these.
import type { OrderEventType } from '../events/index.js';

/** The order a scenario places (the POS sees it as CREATED). */
export interface OrderShape {
  type: 'DELIVERY' | 'TAKEOUT';
  /** SCHEDULED: a delivery window tomorrow (orderTiming SCHEDULED, spec 2.6). */
  timing: 'INSTANT' | 'SCHEDULED';
  /** CASH_WITH_CHANGE: paid on delivery in cash, `changeFor` above the amount. */
  payment: 'ONLINE' | 'CASH_WITH_CHANGE';
  /** KG: only products sold by weight, in fractional quantities (spec 2.6.1, D9). */
  items: 'MIXED' | 'KG';
  takeoutMode?: 'DEFAULT' | 'PICKUP_AREA';
  customerName: string;
  /** SCHEDULED: how many days ahead the window is (default 1, tomorrow). */
  daysAhead?: number;
}

/** What happens to the order once placed; each step raises the event `eventOfStep` names. */
export type ScenarioStep =
  /** The platform's logistics partner reports on the delivery (spec 4.14, 3.1). */
  | { kind: 'logistics'; eventType: 'DELIVERY_ONGOING' | 'DELIVERY_FINISHED'; message: string; setup?: boolean }
  /** The customer asks to cancel (operator-api.md#orders customerCancellation). */
  | { kind: 'customerCancellation'; reason: string; setup?: boolean }
  /** Events only the platform causes (D6). */
  | {
      kind: 'platformEvent';
      eventType: 'CONCLUDED' | 'PICKUP_AREA_ASSIGNED' | 'CANCELLED';
      pickupArea?: string;
      reason?: string;
      code?: string;
      setup?: boolean;
    };
// `setup` marks a step that only brings a new order to where the scenario needs it: it is
// skipped when the scenario is played on an existing order (options.orderId).

export interface ScenarioDefinition {
  name: string;
  description: string;
  order: OrderShape;
  steps: ScenarioStep[];
}

const instantDelivery = (customerName: string): OrderShape => ({
  type: 'DELIVERY',
  timing: 'INSTANT',
  payment: 'ONLINE',
  items: 'MIXED',
  customerName,
});

/** The logistics partner's two reports, as every scenario with a courier plays them. */
const courierOnTheWay = { kind: 'logistics', eventType: 'DELIVERY_ONGOING', message: 'Entregador a caminho' } as const;
const courierDelivered = {
  kind: 'logistics',
  eventType: 'DELIVERY_FINISHED',
  message: 'Pedido entregue ao cliente',
} as const;

/**
 * A scenario's steps when its event needs the order somewhere first: `before` brings a new order
 * there (a setup step, skipped on an existing order), then `step` raises the event under test.
 */
const afterSetup = (before: ScenarioStep, step: ScenarioStep): ScenarioStep[] => [{ ...before, setup: true }, step];

export const SCENARIOS: readonly ScenarioDefinition[] = [
  {
    name: 'delivery-instant',
    description: 'A DELIVERY order to deliver now (orderTiming INSTANT), paid online.',
    order: instantDelivery('Ana Souza'),
    steps: [],
  },
  {
    name: 'delivery-scheduled',
    description:
      'A DELIVERY order scheduled for tomorrow between 11:00 and 11:30 in São Paulo (orderTiming SCHEDULED, ' +
      'with schedule.scheduledDateTimeStart/End): prepare it for then, not now.',
    order: { ...instantDelivery('Bruno Lima'), timing: 'SCHEDULED' },
    steps: [],
  },
  {
    // D44: an encomenda takes a place in its slot and carries its preparation start.
    name: 'christmas-encomenda',
    description:
      'An encomenda for the holidays (D44): a TAKEOUT order of products sold by KG for three days from now, ' +
      '11:00–11:30 in São Paulo (orderTiming SCHEDULED), taking a place in that slot; preparationStartDateTime ' +
      'is the slot’s start minus the longest leadTimeHours of its items. Confirm it within confirmWithinMinutes.',
    order: {
      ...instantDelivery('Helena Costa'),
      type: 'TAKEOUT',
      takeoutMode: 'DEFAULT',
      timing: 'SCHEDULED',
      items: 'KG',
      daysAhead: 3,
    },
    steps: [],
  },
  {
    name: 'takeout',
    description: 'A TAKEOUT order: the customer picks it up at the counter (no delivery, no deliveryCode check).',
    order: { ...instantDelivery('Carla Mendes'), type: 'TAKEOUT', takeoutMode: 'DEFAULT' },
    steps: [],
  },
  {
    name: 'cash-with-change',
    description:
      'A DELIVERY order paid in cash on delivery (payments PENDING, method CASH) with changeFor above the ' +
      'amount: the courier takes the change.',
    order: { ...instantDelivery('Diego Ferreira'), payment: 'CASH_WITH_CHANGE' },
    steps: [],
  },
  {
    name: 'kg-items',
    description:
      'An order of products sold by weight (unit KG) in fractional quantities such as 1.25 (1 kg 250 g); ' +
      'needs a KG product in the catalog.',
    order: { ...instantDelivery('Elaine Rocha'), items: 'KG' },
    steps: [],
  },
  {
    name: 'weighing',
    description:
      'An order of cuts sold by weight (unit KG), with the cut the customer chose where the product has cuts, ' +
      'paid online: confirm it, weigh every KG line with POST /v1/orders/{orderId}/weighing (within ±20 % of the ' +
      'ordered kilograms unless the platform set another tolerance), then mark it ready. The line totals and the ' +
      'order amount follow the weights, and the prepaid difference shows as weighingAdjustment.',
    order: { ...instantDelivery('Lúcia Barros'), items: 'KG' },
    steps: [],
  },
  {
    name: 'customer-cancellation',
    description:
      'A DELIVERY order, then the customer asks to cancel it (ORDER_CANCELLATION_REQUEST): answer with ' +
      'acceptCancellation or denyCancellation.',
    order: instantDelivery('Fábio Alves'),
    steps: [{ kind: 'customerCancellation', reason: 'Cliente desistiu da compra' }],
  },
  {
    name: 'late-customer-cancellation',
    description:
      'A DELIVERY order already out for delivery (the logistics partner reported DELIVERY_ONGOING, so it is ' +
      'DISPATCHED), then the customer asks to cancel (ORDER_CANCELLATION_REQUEST): too late to stop, usually ' +
      'denied with denyCancellation.',
    order: instantDelivery('Gabriela Costa'),
    steps: afterSetup(courierOnTheWay, { kind: 'customerCancellation', reason: 'Cliente desistiu depois do envio' }),
  },
  {
    name: 'logistics-delivery',
    description:
      "The platform's logistics partner delivers a DELIVERY order: DELIVERY_ONGOING (DISPATCHED), then " +
      'DELIVERY_FINISHED (DELIVERED), as signed deliveryUpdate requests.',
    order: instantDelivery('Henrique Dias'),
    steps: [courierOnTheWay, courierDelivered],
  },
  {
    name: 'concluded',
    description:
      'An order the platform concludes (CONCLUDED, final) after the logistics partner delivered it ' +
      '(DELIVERY_FINISHED: DELIVERED). On an existing order (options.orderId) only CONCLUDED is raised.',
    order: instantDelivery('Isabela Martins'),
    steps: afterSetup(courierDelivered, { kind: 'platformEvent', eventType: 'CONCLUDED' }),
  },
  {
    name: 'pickup-area-assigned',
    description:
      'A TAKEOUT order (takeout mode PICKUP_AREA) for which the platform assigns a pickup area ' +
      '(PICKUP_AREA_ASSIGNED with metadata.pickupArea).',
    order: { ...instantDelivery('João Pereira'), type: 'TAKEOUT', takeoutMode: 'PICKUP_AREA' },
    steps: [{ kind: 'platformEvent', eventType: 'PICKUP_AREA_ASSIGNED', pickupArea: 'Balcão 2' }],
  },
  {
    name: 'platform-cancellation',
    description:
      'An order the platform cancels on its own (CANCELLED with code SYSTEMIC_ISSUES, e.g. the payment was ' +
      'refused): stop preparing it.',
    order: instantDelivery('Karina Araújo'),
    steps: [
      {
        kind: 'platformEvent',
        eventType: 'CANCELLED',
        reason: 'Pagamento recusado pela operadora do cartão',
        code: 'SYSTEMIC_ISSUES',
      },
    ],
  },
];

export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name);

export function findScenario(name: string): ScenarioDefinition | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/** The event a step raises when it moves the order (spec 3.1, D6). */
export function eventOfStep(step: ScenarioStep): OrderEventType {
  switch (step.kind) {
    case 'logistics':
      return step.eventType === 'DELIVERY_ONGOING' ? 'DISPATCHED' : 'DELIVERED';
    case 'customerCancellation':
      return 'ORDER_CANCELLATION_REQUEST';
    case 'platformEvent':
      return step.eventType;
  }
}

/** The steps played: all of them on a new order; without the setup ones on an existing order. */
export function stepsToPlay(scenario: ScenarioDefinition, onExistingOrder: boolean): ScenarioStep[] {
  return onExistingOrder ? scenario.steps.filter((s) => !s.setup) : scenario.steps;
}

/** The events a scenario promises, in order (a new order starts with CREATED). */
export function promisedEvents(scenario: ScenarioDefinition, onExistingOrder = false): OrderEventType[] {
  return [
    ...(onExistingOrder ? [] : (['CREATED'] as const)),
    ...stepsToPlay(scenario, onExistingOrder).map(eventOfStep),
  ];
}
