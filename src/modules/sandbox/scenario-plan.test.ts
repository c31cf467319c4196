import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import { type CatalogProduct, changeFor, NO_CATALOG_TITLE, planOrder } from './scenario-plan.js';
import { eventOfStep, findScenario, promisedEvents, SCENARIOS, stepsToPlay } from './scenarios.js';

const NOW = new Date('2026-03-10T18:45:00Z');
const product = (id: string, unit: 'KG' | 'UN', price: number, status: 'AVAILABLE' | 'UNAVAILABLE' = 'AVAILABLE') =>
  ({ id, name: id, unit, price, status }) satisfies CatalogProduct;
const CATALOG = [
  product('carvao', 'UN', 24.9, 'UNAVAILABLE'),
  product('hamburguer', 'UN', 9.5),
  product('picanha', 'KG', 89.9),
  product('fraldinha', 'KG', 54.9),
  product('linguica', 'KG', 32.5),
  product('alcatra', 'KG', 69.9),
];
const scenario = (name: string) => {
  const s = findScenario(name);
  if (!s) throw new Error(`no scenario ${name}`);
  return s;
};

function refusal(fn: () => unknown): { status: number; title: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, title: error.title };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('scenario definitions', () => {
  it('names are unique, kebab-case, and every one is described', () => {
    const names = SCENARIOS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const s of SCENARIOS) {
      expect(s.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(s.description.length).toBeGreaterThan(40);
    }
  });

  it.each([
    ['delivery-instant', ['CREATED'], []],
    ['delivery-scheduled', ['CREATED'], []],
    ['takeout', ['CREATED'], []],
    ['cash-with-change', ['CREATED'], []],
    ['kg-items', ['CREATED'], []],
    ['weighing', ['CREATED'], []],
    ['customer-cancellation', ['CREATED', 'ORDER_CANCELLATION_REQUEST'], ['ORDER_CANCELLATION_REQUEST']],
    [
      'late-customer-cancellation',
      ['CREATED', 'DISPATCHED', 'ORDER_CANCELLATION_REQUEST'],
      ['ORDER_CANCELLATION_REQUEST'],
    ],
    ['logistics-delivery', ['CREATED', 'DISPATCHED', 'DELIVERED'], ['DISPATCHED', 'DELIVERED']],
    ['concluded', ['CREATED', 'DELIVERED', 'CONCLUDED'], ['CONCLUDED']],
    ['pickup-area-assigned', ['CREATED', 'PICKUP_AREA_ASSIGNED'], ['PICKUP_AREA_ASSIGNED']],
    ['platform-cancellation', ['CREATED', 'CANCELLED'], ['CANCELLED']],
  ])('%s promises %j on a new order and %j on an existing one', (name, fresh, existing) => {
    expect(promisedEvents(scenario(name))).toEqual(fresh);
    expect(promisedEvents(scenario(name), true)).toEqual(existing);
  });

  it('maps each step to the event it raises (spec 3.1, D6)', () => {
    expect(eventOfStep({ kind: 'logistics', eventType: 'DELIVERY_ONGOING', message: '' })).toBe('DISPATCHED');
    expect(eventOfStep({ kind: 'logistics', eventType: 'DELIVERY_FINISHED', message: '' })).toBe('DELIVERED');
    expect(eventOfStep({ kind: 'customerCancellation', reason: '' })).toBe('ORDER_CANCELLATION_REQUEST');
    expect(eventOfStep({ kind: 'platformEvent', eventType: 'CONCLUDED' })).toBe('CONCLUDED');
    expect(stepsToPlay(scenario('late-customer-cancellation'), true)).toEqual([
      { kind: 'customerCancellation', reason: 'Cliente desistiu depois do envio' },
    ]);
  });
});

describe('planOrder', () => {
  it('delivery-instant: one KG and one UN product, the delivery fee, no schedule, paid online (default)', () => {
    expect(planOrder(scenario('delivery-instant'), CATALOG, NOW)).toEqual({
      type: 'DELIVERY',
      items: [
        { productId: 'picanha', quantity: 1.25 },
        { productId: 'hamburguer', quantity: 2 },
      ],
      customer: { name: 'Ana Souza' },
      otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', receivedBy: 'MERCHANT', price: 7.9 }],
      extraInfo: 'Sandbox scenario delivery-instant',
    });
  });

  it('delivery-scheduled: tomorrow 11:00–11:30 in São Paulo (14:00–14:30 UTC)', () => {
    expect(planOrder(scenario('delivery-scheduled'), CATALOG, NOW).schedule).toEqual({
      scheduledDateTimeStart: '2026-03-11T14:00:00.000Z',
      scheduledDateTimeEnd: '2026-03-11T14:30:00.000Z',
    });
  });

  it('takeout and pickup-area-assigned: no delivery fee, the takeout mode', () => {
    const takeout = planOrder(scenario('takeout'), CATALOG, NOW);
    expect(takeout).toMatchObject({ type: 'TAKEOUT', otherFees: [], takeout: { mode: 'DEFAULT' } });
    expect(planOrder(scenario('pickup-area-assigned'), CATALOG, NOW).takeout).toEqual({ mode: 'PICKUP_AREA' });
  });

  it('cash-with-change: one PENDING CASH payment of exactly the amount intake computes, change for the next R$ 50', () => {
    // 89.9 × 1.25 = 112.375 → 112.38 (half up); 9.5 × 2 = 19; fee 7.9 → 139.28
    expect(planOrder(scenario('cash-with-change'), CATALOG, NOW).payments).toEqual({
      methods: [{ value: 139.28, type: 'PENDING', method: 'CASH', methodInfo: 'Dinheiro na entrega', changeFor: 150 }],
    });
  });

  it.each([
    ['139.28', 150],
    ['150', 200],
    ['0.01', 50],
    ['49.99', 50],
  ])('changeFor(%s) = %d: always above the amount', (amount, expected) => {
    expect(changeFor(new Decimal(amount))).toBe(expected);
  });

  it('kg-items: up to three KG products in fractional quantities, nothing sold by unit', () => {
    expect(planOrder(scenario('kg-items'), CATALOG, NOW).items).toEqual([
      { productId: 'picanha', quantity: 1.25 },
      { productId: 'fraldinha', quantity: 0.5 },
      { productId: 'linguica', quantity: 2.75 },
    ]);
  });

  it('picks the first cut of a product that has cuts (D37); weighing orders only KG products', () => {
    const withCuts = CATALOG.map((p) => (p.id === 'picanha' ? { ...p, cuts: [{ id: 'bife' }, { id: 'inteira' }] } : p));
    expect(planOrder(scenario('weighing'), withCuts, NOW).items).toEqual([
      { productId: 'picanha', quantity: 1.25, cutId: 'bife' },
      { productId: 'fraldinha', quantity: 0.5 },
      { productId: 'linguica', quantity: 2.75 },
    ]);
    expect(planOrder(scenario('delivery-instant'), withCuts, NOW).items[0]).toEqual({
      productId: 'picanha',
      quantity: 1.25,
      cutId: 'bife',
    });
  });

  it('a catalog of one unit only: the first two products of it', () => {
    const units = [product('a', 'UN', 10), product('b', 'UN', 5), product('c', 'UN', 1)];
    expect(planOrder(scenario('delivery-instant'), units, NOW).items).toEqual([
      { productId: 'a', quantity: 2 },
      { productId: 'b', quantity: 1 },
    ]);
  });

  it('refuses an empty (or all UNAVAILABLE) catalog with the command that fixes it', () => {
    for (const catalog of [[], [product('x', 'KG', 10, 'UNAVAILABLE')]]) {
      expect(refusal(() => planOrder(scenario('takeout'), catalog, NOW))).toEqual({
        status: 400,
        title: NO_CATALOG_TITLE,
      });
    }
    expect(NO_CATALOG_TITLE).toContain('publish a catalog first: cleaver pos catalog push');
  });

  it('kg-items refuses a catalog without a KG product, naming the scenario', () => {
    expect(refusal(() => planOrder(scenario('kg-items'), [product('h', 'UN', 9.5)], NOW))).toEqual({
      status: 400,
      title:
        'Scenario kg-items needs an AVAILABLE product sold by KG and the catalog has none: publish one (unit KG) ' +
        'with cleaver pos catalog push FILE --wait',
    });
  });
});
