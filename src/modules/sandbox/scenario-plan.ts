// Turns a scenario (scenarios.ts) and the merchant's catalog into the order body to hand in.
// Pure: no I/O, the clock comes in as `now`, the same inputs give the same body.
import type { Static } from 'typebox';
import { badRequest } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import type { CreateOrderBody } from '../orders/index.js';
import type { OrderShape, ScenarioDefinition } from './scenarios.js';

export type OrderInput = Static<typeof CreateOrderBody>;

/** A product as the catalog lists it (the merchant record, spec 2.5). */
export interface CatalogProduct {
  id: string;
  name: string;
  price: number;
  unit: 'KG' | 'UN';
  status: 'AVAILABLE' | 'UNAVAILABLE';
  /** D37: the product's cuts, when it has any; the order picks the first. */
  cuts?: Array<{ id: string }>;
}

/** What the customer buys of a KG product, in kilograms (D9: 1.25 = 1 kg 250 g). */
const KG_QUANTITIES = [1.25, 0.5, 2.75];
const UN_QUANTITIES = [2, 1, 3];
/** The delivery fee the merchant receives, set explicitly so the amount is known here. */
const DELIVERY_FEE = 7.9;
/** São Paulo is UTC−3 all year: 11:00 there is 14:00 UTC. */
const SCHEDULED_START_UTC_HOUR = 14;
const SCHEDULED_WINDOW_MIN = 30;
/** Cash is handed over in notes: the change is for the next multiple of this. */
const CASH_NOTE = 50;

export const NO_CATALOG_TITLE =
  'The merchant has no AVAILABLE product to order: publish a catalog first: ' +
  'cleaver pos catalog push FILE --wait (cleaver sandbox sample-catalog prints one)';

function noKgProduct(scenario: string) {
  return badRequest(
    `Scenario ${scenario} needs an AVAILABLE product sold by KG and the catalog has none: ` +
      'publish one (unit KG) with cleaver pos catalog push FILE --wait',
  );
}

/** The items: deterministic picks from the catalog, in its order. */
function pickItems(shape: OrderShape, scenario: string, products: CatalogProduct[]) {
  const available = products.filter((p) => p.status === 'AVAILABLE');
  if (available.length === 0) throw badRequest(NO_CATALOG_TITLE);
  const kg = available.filter((p) => p.unit === 'KG');
  const un = available.filter((p) => p.unit === 'UN');
  let chosen: Array<{ product: CatalogProduct; quantity: number }>;
  if (shape.items === 'KG') {
    if (kg.length === 0) throw noKgProduct(scenario);
    chosen = KG_QUANTITIES.flatMap((quantity, i) => {
      const product = kg[i];
      return product ? [{ product, quantity }] : [];
    });
  } else {
    // One product of each unit when the catalog has both, else the first two of the one it has.
    const [firstKg] = kg;
    const [firstUn] = un;
    const picks = firstKg && firstUn ? [firstKg, firstUn] : available.slice(0, 2);
    const counters = { KG: 0, UN: 0 };
    chosen = picks.map((product) => {
      const n = counters[product.unit]++;
      const quantity = (product.unit === 'KG' ? KG_QUANTITIES : UN_QUANTITIES)[n];
      if (quantity === undefined) throw new Error(`no sandbox quantity for pick ${n} of unit ${product.unit}`);
      return { product, quantity };
    });
  }
  return chosen;
}

/** The amount intake will compute (order-intake.ts: line totals rounded half up to cents, D9). */
function orderAmount(items: Array<{ product: CatalogProduct; quantity: number }>, fee: number): Decimal {
  return items
    .reduce(
      (sum, { product, quantity }) =>
        sum.plus(
          new Decimal(String(product.price))
            .times(new Decimal(String(quantity)))
            .toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
        ),
      new Decimal(0),
    )
    .plus(new Decimal(String(fee)));
}

/** The next multiple of CASH_NOTE strictly above the amount: there is always change. */
export function changeFor(amount: Decimal): number {
  return amount.dividedToIntegerBy(CASH_NOTE).plus(1).times(CASH_NOTE).toNumber();
}

/** The body of the order a scenario places at this merchant, from its catalog, at `now`. */
export function planOrder(scenario: ScenarioDefinition, products: CatalogProduct[], now: Date): OrderInput {
  const shape = scenario.order;
  const items = pickItems(shape, scenario.name, products);
  const fee = shape.type === 'DELIVERY' ? DELIVERY_FEE : 0;
  const body: OrderInput = {
    type: shape.type,
    // D37: sandbox orders choose a cut where the product has cuts.
    items: items.map(({ product, quantity }) => ({
      productId: product.id,
      quantity,
      ...(product.cuts?.[0] ? { cutId: product.cuts[0].id } : {}),
    })),
    customer: { name: shape.customerName },
    otherFees:
      shape.type === 'DELIVERY'
        ? [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', receivedBy: 'MERCHANT', price: DELIVERY_FEE }]
        : [],
    extraInfo: `Sandbox scenario ${scenario.name}`,
  };
  if (shape.type === 'TAKEOUT') body.takeout = { mode: shape.takeoutMode ?? 'DEFAULT' };
  if (shape.timing === 'SCHEDULED') {
    const start = new Date(now);
    start.setUTCDate(start.getUTCDate() + (shape.daysAhead ?? 1));
    start.setUTCHours(SCHEDULED_START_UTC_HOUR, 0, 0, 0);
    const end = new Date(start.getTime() + SCHEDULED_WINDOW_MIN * 60_000);
    body.schedule = { scheduledDateTimeStart: start.toISOString(), scheduledDateTimeEnd: end.toISOString() };
  }
  if (shape.payment === 'CASH_WITH_CHANGE') {
    const amount = orderAmount(items, fee);
    body.payments = {
      methods: [
        {
          value: amount.toNumber(),
          type: 'PENDING',
          method: 'CASH',
          methodInfo: 'Dinheiro na entrega',
          changeFor: changeFor(amount),
        },
      ],
    };
  }
  return body;
}
