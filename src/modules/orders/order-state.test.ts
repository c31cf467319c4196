import { describe, expect, it } from 'vitest';
import {
  ACTION_EVENT,
  type LifecycleAction,
  nextStatus,
  ORDER_STATUSES,
  type OrderStatus,
  TRANSITIONS,
} from './order-state.js';

const ACTIONS = Object.keys(TRANSITIONS) as LifecycleAction[];

/** Every status reachable from CREATED for one order type, with the edges taken. */
function walk(type: 'DELIVERY' | 'TAKEOUT') {
  const seen = new Set<OrderStatus>(['CREATED']);
  const edges: string[] = [];
  const queue: OrderStatus[] = ['CREATED'];
  while (queue.length) {
    const from = queue.shift() as OrderStatus;
    for (const action of ACTIONS) {
      const r = nextStatus(from, action, type);
      if (!r.ok) continue;
      edges.push(`${from} -${action}-> ${r.next}`);
      if (!seen.has(r.next)) {
        seen.add(r.next);
        queue.push(r.next);
      }
    }
  }
  return { seen, edges };
}

describe('order state machine', () => {
  it('every transition targets a known status and records a known event', () => {
    for (const action of ACTIONS) {
      expect(ORDER_STATUSES).toContain(TRANSITIONS[action].to);
      for (const from of TRANSITIONS[action].from) expect(ORDER_STATUSES).toContain(from);
      expect(ACTION_EVENT[action]).toMatch(/^[A-Z_]+$/);
    }
  });

  it('reaches every status from CREATED for DELIVERY orders', () => {
    const { seen } = walk('DELIVERY');
    expect([...seen].sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it('TAKEOUT orders never reach DISPATCHED or DELIVERED through POS actions', () => {
    for (const action of ['dispatch', 'delivered'] as const) {
      for (const from of ORDER_STATUSES) expect(nextStatus(from, action, 'TAKEOUT').ok).toBe(false);
    }
    expect(nextStatus('CONFIRMED', 'dispatch', 'TAKEOUT')).toEqual({
      ok: false,
      reason: 'Order is TAKEOUT: dispatch applies to DELIVERY orders only',
    });
  });

  it('CANCELLED and CONCLUDED are final: no action leaves them', () => {
    for (const from of ['CANCELLED', 'CONCLUDED'] as const) {
      for (const action of ACTIONS) {
        for (const type of ['DELIVERY', 'TAKEOUT'] as const) {
          const r = nextStatus(from, action, type);
          expect(r.ok).toBe(false);
          if (!r.ok && !TRANSITIONS[action].onlyType) expect(r.reason).toBe(`Order is ${from}`);
        }
      }
    }
  });

  it('follows D7 for the POS lifecycle', () => {
    const { edges } = walk('DELIVERY');
    expect(edges).toEqual(
      expect.arrayContaining([
        'CREATED -confirm-> CONFIRMED',
        'CONFIRMED -readyForPickup-> READY_FOR_PICKUP',
        'CONFIRMED -dispatch-> DISPATCHED',
        'READY_FOR_PICKUP -dispatch-> DISPATCHED',
        'DISPATCHED -delivered-> DELIVERED',
        'DELIVERED -conclude-> CONCLUDED',
        'CREATED -cancel-> CANCELLED',
        'DISPATCHED -cancel-> CANCELLED',
        'CREATED -logisticsDispatched-> DISPATCHED',
        'CONFIRMED -logisticsDelivered-> DELIVERED',
      ]),
    );
    expect(nextStatus('DELIVERED', 'cancel', 'DELIVERY')).toEqual({ ok: false, reason: 'Order is DELIVERED' });
    expect(nextStatus('CREATED', 'readyForPickup', 'DELIVERY')).toEqual({
      ok: false,
      reason: 'Order is CREATED: readyForPickup needs CONFIRMED',
    });
    expect(nextStatus('CREATED', 'conclude', 'TAKEOUT').ok).toBe(false);
  });
});
