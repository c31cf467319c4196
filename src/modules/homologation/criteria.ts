// Grades a finished homologation run (operator-api.md#homologation). Pure: what the observer
// saw plus what the run placed in, the criteria out, each with the evidence behind its result.
// A criterion is `required` unless what triggers it depends on a choice the spec leaves to the
// POS (receiving webhooks, uploading a catalog during the run); such a criterion that was not
// triggered is not_observed and not required (docs/adr/homologation.md). Size: one
// grader per criterion of the table in that ADR, read top to bottom beside it.
import type { Timings } from './homologation-timings.js';
import { gradeLabelWeighing, LABEL_WEIGHING_CRITERION } from './label-weighing-criterion.js';
import type { ObservedRequest, PlacedOrder, WebhookProbe } from './observer.js';

/** How long after a 401 a request with the old token may still arrive: it was already on its way. */
const IN_FLIGHT_MS = 1_000;

export type Result = 'pass' | 'fail' | 'not_observed' | 'pending';

export interface Criterion {
  id: string;
  title: string;
  rule: string;
  required: boolean;
  result: Result;
  evidence: string[];
}

export interface RunObservation {
  startedAt: number;
  finishedAt: number;
  timings: Timings;
  requests: ObservedRequest[];
  probes: WebhookProbe[];
  orders: PlacedOrder[];
  /** Events of the run's orders still unacknowledged by the key at the end (spec 4.13). */
  unacknowledged: Array<{ orderId: string; eventType: string; at: number }>;
  /** Whether the POS answered any webhook of the run with 2xx (it receives webhooks). */
  answersWebhooks: boolean;
  catalogFailedAt?: number;
}

/** The definitions, in report order; `grade` fills result and evidence. */
export const CRITERIA: ReadonlyArray<Omit<Criterion, 'result' | 'evidence' | 'required'>> = [
  { id: 'token-reuse', title: 'Token reused until near expiry, renewed once on a 401', rule: 'spec 5.1' },
  { id: 'polling-cadence', title: 'Polling cadence within the band, no bursts', rule: 'D3' },
  { id: 'ack-after-action', title: 'Events acknowledged only after the POS acted on them', rule: 'spec 4.13' },
  { id: 'all-acknowledged', title: 'Every event acknowledged', rule: 'spec 4.13' },
  { id: 'no-duplicate-action', title: 'One action per event, whatever the duplicated deliveries', rule: 'spec 4.13' },
  { id: 'confirm-deadline', title: 'New orders confirmed or cancelled within the deadline', rule: 'spec 4.7' },
  { id: 'cancellation-deadline', title: 'Customer cancellations answered within the deadline', rule: 'spec 4.10' },
  { id: 'lifecycle-after-denial', title: 'Lifecycle continued after a denied cancellation', rule: 'spec 4.10' },
  { id: 'tracking-after-dispatch', title: 'Tracking sent after dispatch', rule: 'spec 4.12' },
  { id: 'code-before-delivered', title: 'Delivery code validated before delivered', rule: 'spec 4.11' },
  { id: 'signatures-checked', title: 'Webhook with a wrong signature refused', rule: 'D10' },
  { id: 'retry-backoff', title: 'Retries back off on 429 and 503 (Retry-After honoured)', rule: 'spec 8' },
  { id: 'catalog-no-resend-loop', title: 'A failed catalog upload is not resent in a loop', rule: 'spec 3.2' },
  { id: 'kg-weighed', title: 'KG lines weighed before ready; weights within tolerance', rule: 'D38' },
  LABEL_WEIGHING_CRITERION,
];

const ORDER_PATH = /^\/v1\/orders\/([0-9a-fA-F-]{36})\/([A-Za-z]+)$/;
const ACTIONS = new Set([
  'confirm',
  'requestCancellation',
  'acceptCancellation',
  'denyCancellation',
  'preparing',
  'readyForPickup',
  'dispatch',
  'delivered',
]);
/** Scenarios whose order the POS must answer (the platform cancels or dispatches the others itself). */
const TO_ANSWER = new Set([
  'delivery-instant',
  'delivery-scheduled',
  'takeout',
  'cash-with-change',
  'kg-items',
  'customer-cancellation',
  'pickup-area-assigned',
]);
const ANSWERS = new Set(['confirm', 'requestCancellation', 'acceptCancellation', 'denyCancellation']);

interface OrderCall {
  at: number;
  orderId: string;
  action: string;
  status: number;
}

export function grade(o: RunObservation): Criterion[] {
  const t0 = o.startedAt;
  const rel = (at: number) => `${at < t0 ? '-' : '+'}${(Math.abs(at - t0) / 1000).toFixed(2)}s`;
  const line = (r: ObservedRequest) =>
    `${rel(r.at)} ${r.method} ${r.path} → ${r.status}${r.injected ? ' (injected)' : ''} token ${r.jti.slice(0, 8)}`;
  const real = o.requests.filter((r) => !r.injected);
  const calls: OrderCall[] = [];
  for (const r of real) {
    const [, orderId, action] = ORDER_PATH.exec(r.path) ?? [];
    if (orderId && action && r.method === 'POST') {
      calls.push({ at: r.at, orderId: orderId.toLowerCase(), action, status: r.status });
    }
  }
  const callLine = (c: OrderCall) => `${rel(c.at)} POST /v1/orders/${c.orderId}/${c.action} → ${c.status}`;
  const callsOf = (orderId: string, actions: Set<string> | string) =>
    calls.filter(
      (c) => c.orderId === orderId && (typeof actions === 'string' ? c.action === actions : actions.has(c.action)),
    );
  const ok = (c: { status: number }) => c.status >= 200 && c.status < 300;
  const eventAt = (order: PlacedOrder, type: string) => order.events.find((e) => e.eventType === type)?.at;

  const results: Record<string, { result: Result; evidence: string[]; required?: boolean }> = {};

  // spec 5.1: one token reused; a 401 answered by a new token (and not by the same one again).
  {
    const tokens = [...new Set(real.map((r) => r.jti))];
    const unauthorized = o.requests.filter((r) => r.injected === 401);
    const evidence = [`${tokens.length} distinct token(s) over ${real.length} request(s)`];
    let fail = tokens.length > unauthorized.length + 2;
    if (fail) evidence.push(...real.slice(0, 5).map(line), '… a new token for (almost) every request');
    for (const u of unauthorized) {
      evidence.push(line(u));
      // Requests already in flight when the 401 came back may still carry the old token (a POS
      // works on several orders at once): what counts is that a new token follows and the old
      // one is not used after it, or, without a new token, not used again once the 401 is old.
      const renewed = real.find((r) => r.at > u.at && r.jti !== u.jti);
      const stale = renewed
        ? real.find((r) => r.at > renewed.at && r.jti === u.jti)
        : real.find((r) => r.at > u.at + IN_FLIGHT_MS && r.jti === u.jti);
      if (stale) {
        fail = true;
        evidence.push(`${line(stale)}: the same token again after its 401`);
      } else if (renewed) evidence.push(`${line(renewed)}: a new token`);
      else evidence.push('no request after the 401');
    }
    results['token-reuse'] = { result: real.length === 0 ? 'not_observed' : fail ? 'fail' : 'pass', evidence };
  }

  // Polling: the median interval within the band, and never a burst.
  {
    const polls = o.requests.filter((r) => r.method === 'GET' && r.path === '/v1/events:polling').map((r) => r.at);
    const gaps = polls.flatMap((at, i) => {
      const previous = polls[i - 1];
      return previous === undefined ? [] : [at - previous];
    });
    const sorted = [...gaps].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const { pollMinIntervalMs: min, pollMaxIntervalMs: max, pollBurstWindowMs: win, pollBurstMax } = o.timings;
    let burst: { from: number; count: number } | undefined;
    let j = 0; // the first poll within `win` of poll i (j ≤ i, so polls[j] is there)
    for (const [i, at] of polls.entries()) {
      while (at - (polls[j] ?? at) > win) j++;
      if (i - j + 1 > pollBurstMax) {
        burst = { from: polls[j] ?? at, count: i - j + 1 };
        break;
      }
    }
    const evidence = [
      `${polls.length} poll(s); median interval ${median ?? '-'} ms (band ${min}–${max} ms)`,
      ...(burst ? [`burst: ${burst.count} polls within ${win} ms from ${rel(burst.from)}`] : []),
    ];
    const fail = median !== undefined && (median < min || median > max || burst !== undefined);
    results['polling-cadence'] = { result: polls.length < 3 ? 'not_observed' : fail ? 'fail' : 'pass', evidence };
  }

  // spec 4.13: acknowledged after acting (CREATED and ORDER_CANCELLATION_REQUEST need an answer).
  {
    const acked = new Map<string, ObservedRequest>();
    for (const r of real)
      for (const a of r.acks ?? [])
        acked.set(
          `${a.orderId.toLowerCase()} ${a.eventType}`,
          acked.get(`${a.orderId.toLowerCase()} ${a.eventType}`) ?? r,
        );
    const evidence: string[] = [];
    let checked = 0;
    let fail = false;
    for (const order of o.orders.filter((x) => TO_ANSWER.has(x.scenario))) {
      const pairs: Array<[string, Set<string>]> = [['CREATED', ANSWERS]];
      if (eventAt(order, 'ORDER_CANCELLATION_REQUEST')) {
        pairs.push(['ORDER_CANCELLATION_REQUEST', new Set(['acceptCancellation', 'denyCancellation'])]);
      }
      for (const [eventType, actions] of pairs) {
        const ack = acked.get(`${order.id} ${eventType}`);
        if (!ack) continue;
        checked++;
        const action = callsOf(order.id, actions).find((c) => c.at <= ack.at);
        if (!action) {
          fail = true;
          const later = callsOf(order.id, actions)[0];
          evidence.push(
            `${eventType} of ${order.scenario} order ${order.id} acknowledged at ${rel(ack.at)} before any answer` +
              (later ? ` (answered at ${rel(later.at)})` : ' (never answered)'),
          );
        } else if (evidence.length < 10)
          evidence.push(`${eventType} of ${order.scenario}: ${callLine(action)}, acknowledged at ${rel(ack.at)}`);
      }
    }
    results['ack-after-action'] = { result: checked === 0 ? 'not_observed' : fail ? 'fail' : 'pass', evidence };
  }

  // spec 4.13: nothing left unacknowledged (events of the last confirm deadline may still be in hand).
  {
    const grace = o.finishedAt - o.timings.confirmDeadlineMs;
    const missing = o.unacknowledged.filter((e) => e.at <= grace);
    results['all-acknowledged'] = {
      result: o.orders.length === 0 ? 'not_observed' : missing.length ? 'fail' : 'pass',
      evidence: missing.length
        ? missing.map((e) => `${e.eventType} of order ${e.orderId} (${rel(e.at)}) never acknowledged`)
        : [`every event of the run's ${o.orders.length} orders acknowledged`],
    };
  }

  // One action per (order, action), whatever webhook + polling + repeated webhook delivered.
  {
    const seen = new Map<string, OrderCall[]>();
    for (const c of calls.filter((x) => ACTIONS.has(x.action))) {
      const k = `${c.orderId} ${c.action}`;
      seen.set(k, [...(seen.get(k) ?? []), c]);
    }
    const dupes = [...seen.values()].filter((cs): cs is [OrderCall, OrderCall, ...OrderCall[]] => cs.length > 1);
    const evidence = dupes.length
      ? dupes.flatMap((cs) => [
          `${cs[0].action} sent ${cs.length} times for order ${cs[0].orderId}:`,
          ...cs.map(callLine),
        ])
      : [`${[...seen.values()].length} action(s), each sent once`];
    for (const p of o.probes.filter((x) => x.kind === 'repeated')) {
      evidence.push(
        `${rel(p.at)} webhook ${p.webhookId} (${p.eventType}) delivered again with the same webhook-id → ${p.status ?? p.error}`,
      );
    }
    results['no-duplicate-action'] = {
      result: seen.size === 0 ? 'not_observed' : dupes.length ? 'fail' : 'pass',
      evidence,
    };
  }

  // Deadlines: new orders answered, customer cancellations answered.
  const deadline = (
    id: string,
    eventType: string,
    actions: Set<string>,
    limit: number,
    scenarios: (o: PlacedOrder) => boolean,
  ) => {
    const evidence: string[] = [];
    let checked = 0;
    let fail = false;
    for (const order of o.orders.filter(scenarios)) {
      const at = eventAt(order, eventType);
      if (at === undefined || at + limit > o.finishedAt) continue;
      checked++;
      const answer = callsOf(order.id, actions)[0];
      if (!answer || answer.at - at > limit) {
        fail = true;
        evidence.push(
          `${order.scenario} order ${order.id}: ${eventType} at ${rel(at)}, ${answer ? `answered after ${answer.at - at} ms: ${callLine(answer)}` : 'never answered'} (deadline ${limit} ms)`,
        );
      } else
        evidence.push(
          `${order.scenario}: ${eventType} at ${rel(at)} answered after ${answer.at - at} ms: ${callLine(answer)}`,
        );
    }
    results[id] = { result: checked === 0 ? 'not_observed' : fail ? 'fail' : 'pass', evidence };
  };
  deadline('confirm-deadline', 'CREATED', ANSWERS, o.timings.confirmDeadlineMs, (x) => TO_ANSWER.has(x.scenario));
  deadline(
    'cancellation-deadline',
    'ORDER_CANCELLATION_REQUEST',
    new Set(['acceptCancellation', 'denyCancellation']),
    o.timings.cancellationDeadlineMs,
    () => true,
  );

  // spec 4.10: a denial does not end the order: the POS still hands it over.
  {
    const denials = calls.filter((c) => c.action === 'denyCancellation' && ok(c));
    const evidence: string[] = [];
    let fail = false;
    for (const d of denials) {
      const next = calls.find(
        (c) =>
          c.orderId === d.orderId &&
          c.at > d.at &&
          ['dispatch', 'readyForPickup', 'delivered', 'validateCode', 'tracking'].includes(c.action),
      );
      if (next) evidence.push(`${callLine(d)}, then ${callLine(next)}`);
      else {
        fail = true;
        evidence.push(`${callLine(d)}, then nothing more for the order`);
      }
    }
    results['lifecycle-after-denial'] = {
      result: denials.length === 0 ? 'not_observed' : fail ? 'fail' : 'pass',
      evidence,
    };
  }

  // spec 4.12: tracking follows the POS's own dispatch.
  {
    const dispatches = calls.filter((c) => c.action === 'dispatch' && ok(c));
    const evidence: string[] = [];
    let fail = false;
    for (const d of dispatches) {
      const t = calls.find((c) => c.orderId === d.orderId && c.action === 'tracking' && c.at >= d.at);
      if (t) evidence.push(`${callLine(d)}, then ${callLine(t)}`);
      else {
        fail = true;
        evidence.push(`${callLine(d)}, and no tracking after it`);
      }
    }
    results['tracking-after-dispatch'] = {
      result: dispatches.length === 0 ? 'not_observed' : fail ? 'fail' : 'pass',
      evidence,
    };
  }

  // spec 4.11: no hand-over without the customer's code checked first.
  {
    const delivered = calls.filter((c) => c.action === 'delivered');
    const evidence: string[] = [];
    let fail = false;
    for (const d of delivered) {
      const v = calls.find((c) => c.orderId === d.orderId && c.action === 'validateCode' && ok(c) && c.at <= d.at);
      if (v) evidence.push(`${callLine(v)}, then ${callLine(d)}`);
      else {
        fail = true;
        evidence.push(`${callLine(d)} without a valid validateCode before it`);
      }
    }
    results['code-before-delivered'] = {
      result: delivered.length === 0 ? 'not_observed' : fail ? 'fail' : 'pass',
      evidence,
    };
  }

  // Signatures: the wrong-signature webhook must not be taken (2xx) by a POS that takes webhooks.
  {
    const probes = o.probes.filter((p) => p.kind === 'wrong-signature');
    const answered = probes.filter((p) => p.status !== null);
    const evidence = probes.map(
      (p) => `${rel(p.at)} webhook ${p.webhookId} (${p.eventType}) with a wrong signature → ${p.status ?? p.error}`,
    );
    if (!o.answersWebhooks) evidence.push('the POS answered no webhook with 2xx during the run: polling only');
    const fail = answered.some((p) => (p.status as number) < 300);
    results['signatures-checked'] = {
      result: answered.length === 0 ? 'not_observed' : fail ? 'fail' : 'pass',
      evidence,
      required: o.answersWebhooks,
    };
  }

  // Backoff: after an injected 429/503 the same request comes back no sooner than Retry-After.
  {
    const minGap = o.timings.retryAfterSec * 1000 * 0.9;
    const injected = o.requests.filter((r) => r.injected === 429 || r.injected === 503);
    const evidence: string[] = [];
    let fail = false;
    for (const i of injected) {
      const next = o.requests.find((r) => r.at > i.at && r.method === i.method && r.path === i.path);
      if (!next) evidence.push(`${line(i)}; not sent again`);
      else if (next.at - i.at < minGap) {
        fail = true;
        evidence.push(
          `${line(i)}; sent again ${next.at - i.at} ms later (Retry-After ${o.timings.retryAfterSec} s): ${line(next)}`,
        );
      } else evidence.push(`${line(i)}; sent again ${next.at - i.at} ms later`);
    }
    results['retry-backoff'] = { result: injected.length === 0 ? 'not_observed' : fail ? 'fail' : 'pass', evidence };
  }

  // spec 3.2: after a FAIL, the same catalog is not uploaded again and again.
  {
    const uploads = o.requests.filter((r) => r.path === '/v1/merchantUpdate' && r.method !== 'GET');
    const after = o.catalogFailedAt === undefined ? [] : uploads.filter((r) => r.at > (o.catalogFailedAt as number));
    const evidence = uploads.map(line);
    if (o.catalogFailedAt !== undefined)
      evidence.push(`${rel(o.catalogFailedAt)} the sandbox ended the upload's sync in FAIL`);
    results['catalog-no-resend-loop'] = {
      result: o.catalogFailedAt === undefined ? 'not_observed' : after.length > 1 ? 'fail' : 'pass',
      evidence: evidence.length ? evidence : ['no catalog upload during the run'],
      required: o.catalogFailedAt !== undefined,
    };
  }

  // D38 (optional: a POS without a scale may sell by the estimate): every KG line of an order
  // the POS made ready or dispatched was weighed before, and no weighing was refused.
  {
    const weighings = real.filter((r) => r.method === 'POST' && r.path.endsWith('/weighing'));
    const evidence: string[] = [];
    let fail = false;
    let checked = 0;
    for (const r of weighings.filter((x) => x.status >= 400)) {
      fail = true;
      evidence.push(`${line(r)}: a weighing refused (a weight outside the tolerance, a UN line, or too late)`);
    }
    for (const order of o.orders) {
      if (!order.kgLines?.length) continue;
      const ready = calls.find(
        (c) => c.orderId === order.id && (c.action === 'readyForPickup' || c.action === 'dispatch') && ok(c),
      );
      if (!ready) continue;
      checked++;
      const weighed = new Set(
        weighings
          .filter((r) => r.at <= ready.at && ORDER_PATH.exec(r.path)?.[1]?.toLowerCase() === order.id)
          .flatMap((r) => r.weighed ?? []),
      );
      const missing = order.kgLines.filter((i) => !weighed.has(i));
      if (missing.length) {
        fail = true;
        evidence.push(
          `${order.scenario} order ${order.id}: ${callLine(ready)} with KG line(s) ${missing.join(', ')} not weighed`,
        );
      } else {
        evidence.push(`${order.scenario}: KG line(s) ${order.kgLines.join(', ')} weighed, then ${callLine(ready)}`);
      }
    }
    results['kg-weighed'] = {
      result: checked === 0 && weighings.length === 0 ? 'not_observed' : fail ? 'fail' : 'pass',
      evidence: evidence.length ? evidence : ['no order with KG lines was made ready or dispatched by the POS'],
      required: false,
    };
  }

  results['label-weighing'] = gradeLabelWeighing(real);

  return CRITERIA.map((c) => {
    const r = results[c.id];
    if (!r) throw new Error(`homologation criterion ${c.id} was never evaluated`);
    return { ...c, required: r.required ?? true, result: r.result, evidence: r.evidence };
  });
}

/** Criteria of a run still going: defined, not graded. */
export const pendingCriteria = (): Criterion[] =>
  CRITERIA.map((c) => ({ ...c, required: true, result: 'pending' as const, evidence: [] }));

export const allRequiredPass = (criteria: Criterion[]) => criteria.every((c) => !c.required || c.result === 'pass');
