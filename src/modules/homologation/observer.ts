// What a homologation run sees of its key (operator-api.md#homologation): every request the
// key makes while it has a RUNNING run, with method, path, status, time and the token used,
// and the answers the sandbox injects into some of them (a 401, a 429, a 503). Held in memory
// by the process that runs the run: the hooks cost one Map lookup when no run is active (the
// map is empty), and nothing is written per request. The sandbox runs one API process; a
// request served by another process is not seen (docs/adr/homologation.md).

import type { FastifyReply, FastifyRequest } from 'fastify';
import { noteErrorTitle } from '../../lib/error-title.js';
import type { Timings } from './homologation-timings.js';

export type Injection = 401 | 429 | 503;

export interface ObservedRequest {
  /** Arrival, epoch ms. */
  at: number;
  method: string;
  path: string;
  status: number;
  /** The token's id (its first 8 characters are shown in evidence, never the token). */
  jti: string;
  injected?: Injection;
  /** POST /v1/events/acknowledgment answered 2xx: what it acknowledged. */
  acks?: Array<{ orderId: string; eventType: string }>;
  /** POST /v1/orders/{id}/weighing answered 2xx: the indexes of the lines it weighed (D38). */
  weighed?: number[];
  /** Of those, the lines weighed by their scale label (D41). */
  weighedByLabel?: number[];
}

export interface WebhookProbe {
  kind: 'wrong-signature' | 'repeated';
  at: number;
  webhookId: string;
  orderId: string;
  eventType: string;
  status: number | null;
  error?: string;
}

export interface PlacedOrder {
  id: string;
  scenario: string;
  type: 'DELIVERY' | 'TAKEOUT';
  deliveryCode: string;
  placedAt: number;
  /** Events the play raised, with times (CREATED, ORDER_CANCELLATION_REQUEST…). */
  events: Array<{ eventType: string; at: number }>;
  /** D38: the indexes of the order's lines sold by KG, which the POS weighs before ready. */
  kgLines?: number[];
}

export interface ActiveRun {
  id: string;
  keyId: string;
  merchantId: string;
  startedAt: number;
  timings: Timings;
  requests: ObservedRequest[];
  probes: WebhookProbe[];
  orders: PlacedOrder[];
  /** Still to inject, in this order, each on a GET of the key once nextInjectionAt has come. */
  injections: Injection[];
  nextInjectionAt: number;
  /** Set when the forced catalog FAIL was used (the catalog worker reports it through the DB). */
  catalogFailedAt?: number;
}

/** A run keeps at most this many requests (a POS hammering the API still gets a bounded report). */
const MAX_REQUESTS = 20_000;
const ACK_PATH = '/v1/events/acknowledgment';
const OWN_ROUTES = '/v1/homologations';
const WEIGHING_SUFFIX = '/weighing';
const TITLES: Record<Injection, string> = {
  401: 'Unauthorized (injected by the homologation run: get a new token and resend once, spec 5.1)',
  429: 'Too Many Requests (injected by the homologation run: back off, spec 8)',
  503: 'Service Unavailable (injected by the homologation run: back off)',
};

export function createObserver(now: () => number) {
  const active = new Map<string, ActiveRun>();
  const injected = new WeakMap<FastifyRequest, Injection>();

  const pathOf = (url: string) => {
    const q = url.indexOf('?');
    return q === -1 ? url : url.slice(0, q);
  };

  return {
    active,
    runOfKey: (keyId: string) => active.get(keyId),
    start(run: ActiveRun): void {
      active.set(run.keyId, run);
    },
    stop(keyId: string): ActiveRun | undefined {
      const run = active.get(keyId);
      active.delete(keyId);
      return run;
    },

    /** onRequest, after the bearer token: answers the next due injection instead of the route. */
    onRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
      const run = active.size === 0 || !request.principal ? undefined : active.get(request.principal.keyId);
      const due =
        run !== undefined &&
        request.method === 'GET' &&
        run.injections.length > 0 &&
        now() >= run.nextInjectionAt &&
        // The run's own routes answer truthfully: a POS (or the CLI) follows its run through them.
        !request.url.startsWith(OWN_ROUTES);
      if (!due) {
        done();
        return;
      }
      const status = run.injections.shift() as Injection;
      run.nextInjectionAt = now() + run.timings.injectionGapMs;
      injected.set(request, status);
      if (status !== 401) reply.header('retry-after', String(run.timings.retryAfterSec));
      noteErrorTitle(request, TITLES[status]);
      reply.code(status).send({ title: TITLES[status], status });
    },

    /** onResponse: one entry per request of a key under homologation. */
    onResponse(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
      const run = active.size === 0 || !request.principal ? undefined : active.get(request.principal.keyId);
      const path = run ? pathOf(request.url) : '';
      // The run's own routes are how a POS or the CLI follows it: not part of what is graded.
      if (run && request.principal && run.requests.length < MAX_REQUESTS && !path.startsWith(OWN_ROUTES)) {
        const entry: ObservedRequest = {
          at: Math.round(now() - reply.elapsedTime),
          method: request.method,
          path,
          status: reply.statusCode,
          jti: request.principal.jti,
        };
        const injection = injected.get(request);
        if (injection) entry.injected = injection;
        if (path === ACK_PATH && reply.statusCode < 300 && Array.isArray(request.body)) {
          entry.acks = (request.body as Array<{ orderId?: unknown; eventType?: unknown }>).map((e) => ({
            orderId: String(e.orderId),
            eventType: String(e.eventType),
          }));
        }
        if (path.endsWith(WEIGHING_SUFFIX) && reply.statusCode < 300) {
          const items = (request.body as { items?: Array<{ index?: unknown }> } | undefined)?.items;
          entry.weighed = Array.isArray(items) ? items.map((i) => Number(i.index)) : [];
          const labelled = Array.isArray(items)
            ? items.filter((i) => typeof (i as { label?: unknown }).label === 'string')
            : [];
          if (labelled.length > 0) entry.weighedByLabel = labelled.map((i) => Number(i.index));
        }
        run.requests.push(entry);
      }
      done();
    },
  };
}

export type Observer = ReturnType<typeof createObserver>;
