import { describe, expect, it } from 'vitest';
import { type Criterion, grade, type RunObservation } from './criteria.js';
import { DEFAULT_TIMINGS } from './homologation-timings.js';
import type { ObservedRequest } from './observer.js';

const T0 = 1_000_000;
const ORDER = '11111111-1111-4111-8111-111111111111';
const req = (at: number, method: string, path: string, extra: Partial<ObservedRequest> = {}): ObservedRequest => ({
  at: T0 + at,
  method,
  path,
  status: 200,
  jti: 'token-a',
  ...extra,
});
const base = (requests: ObservedRequest[], extra: Partial<RunObservation> = {}): RunObservation => ({
  startedAt: T0,
  finishedAt: T0 + 300_000,
  timings: DEFAULT_TIMINGS,
  requests,
  probes: [],
  orders: [],
  unacknowledged: [],
  answersWebhooks: false,
  ...extra,
});
const result = (criteria: Criterion[], id: string) => criteria.find((c) => c.id === id) as Criterion;
/** One criterion as graded from these requests alone. */
const criterion = (id: string, requests: ObservedRequest[]) => result(grade(base(requests)), id);

describe('grade', () => {
  it('token-reuse fails when the request after an injected 401 carries the same token', () => {
    const c = criterion('token-reuse', [
      req(0, 'GET', '/v1/events:polling', { status: 401, injected: 401 }),
      req(5_000, 'GET', '/v1/events:polling'),
    ]);
    expect(c.result).toBe('fail');
    expect(c.evidence.join('\n')).toContain('the same token again after its 401');
  });

  it('token-reuse allows requests already in flight with the old token, then a new one', () => {
    const c = criterion('token-reuse', [
      req(0, 'GET', '/v1/events:polling', { status: 401, injected: 401 }),
      req(300, 'GET', `/v1/orders/${ORDER}`),
      req(900, 'POST', '/oauth/token', { jti: 'token-b' }),
      req(1_200, 'GET', '/v1/events:polling', { jti: 'token-b' }),
    ]);
    expect(c.result).toBe('pass');
    expect(c.evidence.join('\n')).toContain('a new token');
  });

  it('token-reuse fails when the old token comes back after the new one was in use', () => {
    const c = criterion('token-reuse', [
      req(0, 'GET', '/v1/events:polling', { status: 401, injected: 401 }),
      req(500, 'GET', '/v1/events:polling', { jti: 'token-b' }),
      req(700, 'GET', `/v1/orders/${ORDER}`),
    ]);
    expect(c.result).toBe('fail');
    expect(c.evidence.join('\n')).toContain('the same token again after its 401');
  });

  it('catalog-no-resend-loop fails on a second upload after the FAIL, and is required only when triggered', () => {
    const uploads = [1_000, 3_000, 5_000].map((at) => req(at, 'PUT', '/v1/merchantUpdate', { status: 202 }));
    const looped = result(grade(base(uploads, { catalogFailedAt: T0 + 1_500 })), 'catalog-no-resend-loop');
    expect(looped).toMatchObject({ result: 'fail', required: true });
    const none = result(grade(base([])), 'catalog-no-resend-loop');
    expect(none).toMatchObject({ result: 'not_observed', required: false });
  });

  it('retry-backoff fails when the request comes back sooner than Retry-After', () => {
    const c = criterion('retry-backoff', [
      req(0, 'GET', `/v1/orders/${ORDER}`, { status: 429, injected: 429 }),
      req(100, 'GET', `/v1/orders/${ORDER}`),
    ]);
    expect(c.result).toBe('fail');
    expect(c.evidence[0]).toContain('sent again 100 ms later');
  });

  it('code-before-delivered fails on a delivered with no valid validateCode before it', () => {
    const c = criterion('code-before-delivered', [
      req(0, 'POST', `/v1/orders/${ORDER}/validateCode`, { status: 400 }),
      req(10, 'POST', `/v1/orders/${ORDER}/delivered`, { status: 202 }),
    ]);
    expect(c.result).toBe('fail');
  });

  describe('kg-weighed (D38, optional)', () => {
    const placed = {
      id: ORDER,
      scenario: 'kg-items',
      type: 'DELIVERY' as const,
      deliveryCode: '1234',
      placedAt: T0,
      events: [],
      kgLines: [0, 2],
    };
    const weigh = (at: number, lines: number[], status = 202) =>
      req(at, 'POST', `/v1/orders/${ORDER}/weighing`, { status, ...(status < 300 ? { weighed: lines } : {}) });
    const dispatch = (at: number) => req(at, 'POST', `/v1/orders/${ORDER}/dispatch`, { status: 202 });
    const kg = (requests: ObservedRequest[]) => result(grade(base(requests, { orders: [placed] })), 'kg-weighed');

    it('passes when every KG line was weighed (over one or more weighings) before dispatch; never required', () => {
      expect(kg([weigh(0, [0]), weigh(50, [2, 0]), dispatch(100)])).toMatchObject({ result: 'pass', required: false });
    });

    it('fails on a KG line not weighed before the order left, or a weighing that was refused', () => {
      const late = kg([weigh(0, [0]), dispatch(100), weigh(200, [2])]);
      expect(late).toMatchObject({ result: 'fail', required: false });
      expect(late.evidence.join('\n')).toContain('with KG line(s) 2 not weighed');
      const refused = kg([weigh(0, [], 400), weigh(10, [0, 2]), dispatch(100)]);
      expect(refused.result).toBe('fail');
      expect(refused.evidence.join('\n')).toContain('a weighing refused');
    });

    it('is not observed when no order of KG lines was made ready or dispatched and nothing was weighed', () => {
      expect(kg([])).toMatchObject({ result: 'not_observed', required: false });
    });
  });
});

describe('label-weighing (D41, optional)', () => {
  const weighing = `/v1/orders/${ORDER}/weighing`;
  it('passes when a weighing answered 2xx named a line by its label, with that line as evidence', () => {
    const c = criterion('label-weighing', [
      req(0, 'POST', weighing, { weighed: [0, 1], weighedByLabel: [1] }),
      req(1_000, 'POST', weighing, { weighed: [2] }),
    ]);
    expect(c).toMatchObject({ result: 'pass', required: false });
    expect(c.evidence).toEqual([`POST ${weighing} → 200: line(s) 1 by label`]);
  });

  it('is not observed, and not required, when every line was weighed by typing the kilograms', () => {
    const c = criterion('label-weighing', [req(0, 'POST', weighing, { weighed: [0] })]);
    expect(c).toMatchObject({ result: 'not_observed', required: false });
    expect(c.evidence).toEqual(['no line was weighed by its scale label']);
  });

  it('a refused or injected weighing by label does not count', () => {
    const c = criterion('label-weighing', [
      req(0, 'POST', weighing, { status: 400, weighedByLabel: [0] }),
      req(1_000, 'POST', weighing, { status: 503, injected: 503, weighedByLabel: [0] }),
    ]);
    expect(c.result).toBe('not_observed');
  });
});
