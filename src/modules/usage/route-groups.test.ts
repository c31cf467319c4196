import { describe, expect, it } from 'vitest';
import { routeGroupOf } from './route-groups.js';
import { presenceState } from './usage-service.js';

describe('route groups', () => {
  it.each([
    ['GET', '/v1/events::polling', 'poll'],
    ['POST', '/v1/events/acknowledgment', 'acknowledge'],
    ['GET', '/v1/orders/:orderId', 'orders-read'],
    ['POST', '/v1/orders/:orderId/confirm', 'order-actions'],
    ['PUT', '/v1/merchantUpdate', 'catalog'],
    ['GET', '/v1/merchantStatus', 'catalog'],
    ['GET', '/v1/merchant', 'catalog'],
    ['PUT', '/v1/merchantOnboarding', 'onboarding'],
    ['GET', undefined, 'other'],
  ])('%s %s → %s', (method, url, group) => {
    expect(routeGroupOf(method, url)).toBe(group);
  });
});

describe('presence state', () => {
  const config = { lateAfterSec: 120, offlineAfterSec: 900, autoUnavailableAfterSec: 0 };
  const now = new Date('2026-03-02T15:00:00Z');
  it.each([
    [null, 'never'],
    [0, 'online'],
    [119, 'online'],
    [120, 'late'],
    [899, 'late'],
    [900, 'offline'],
  ])('last seen %s s ago → %s', (ago, state) => {
    const last = ago === null ? null : new Date(now.getTime() - ago * 1000);
    expect(presenceState(last, now, config)).toBe(state);
  });
});
