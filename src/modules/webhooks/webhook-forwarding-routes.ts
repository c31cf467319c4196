// /v1/sandbox/listen: what `cleaver listen --forward-to URL` talks to (webhook-forwarding.ts).
// Sandbox only (D25): app.ts registers these routes only when CLEAVER_ENV=sandbox, so in
// production they answer 404 like any unknown route.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answerNoContent } from '../../lib/answers.js';
import { declareRoute, MERCHANT_READ, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import { MAX_WAIT_SEC, type WebhookForwarding } from './webhook-forwarding.js';

const EXAMPLE_BODY =
  '{"eventId":"5c8a7a47-6f7e-4f83-9a8c-3b1f0f6f9e21","eventType":"CREATED","orderId":"0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10","orderURL":"https://cleaver.example/v1/orders/0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10","createdAt":"2026-11-24T12:00:00.000Z","sourceAppId":"marketplace"}';

const ListenBody = Type.Object(
  {
    forwardTo: Type.String({
      format: 'uri',
      maxLength: 2000,
      description:
        'The local URL the CLI POSTs each webhook to, as given (no path is appended). Recorded as the target of each attempt.',
      examples: ['http://localhost:4000/webhooks/cleaver'],
    }),
    waitSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_WAIT_SEC,
        default: 20,
        description: `How long to wait for a delivery before answering with none (long-poll), at most ${MAX_WAIT_SEC}.`,
        examples: [20],
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Where the listener forwards webhooks, and how long this poll may wait.',
    examples: [{ forwardTo: 'http://localhost:4000/webhooks/cleaver', waitSeconds: 20 }],
  },
);

const ForwardedDelivery = Type.Object(
  {
    deliveryId: Uuid({ description: 'The webhook delivery; report the local answer to its attempts URL.' }),
    leaseToken: Uuid({
      description: 'Proves this listener holds the delivery; sent back with the report. Valid until the lease ends.',
    }),
    attemptNo: Type.Integer({ minimum: 1, description: 'Which attempt of the delivery this is (1 = the first).' }),
    webhookId: Uuid({
      description: 'The `webhook-id` header: the same on every attempt of the event, for de-duplication.',
    }),
    eventType: Type.String({
      description: 'The event type of the body (see the event catalog).',
      examples: ['CREATED'],
    }),
    orderId: Uuid({ description: 'The order the event is about.' }),
    profile: Type.Enum(['cleaver', 'opendelivery'], {
      description:
        'The dialect of the body: that of the key that registered the webhook URL (opendelivery bodies are Open Delivery event records).',
    }),
    headers: Type.Record(Type.String(), Type.String(), {
      description:
        'Exactly the headers a worker would send: content-type, x-app-id, x-app-merchantid, x-app-signature (hex HMAC-SHA256 of the body) and the Standard Webhooks webhook-id, webhook-timestamp, webhook-signature.',
    }),
    body: Type.String({
      description: 'The exact body bytes that were signed; POST them unchanged.',
      examples: [EXAMPLE_BODY],
    }),
  },
  { description: 'A webhook handed to the listener instead of being sent to the registered URL.' },
);

const ListenAnswer = Type.Object(
  {
    deliveries: Type.Array(ForwardedDelivery, {
      description: 'Due deliveries of the merchant (up to 10), oldest first; empty when the wait ended with none.',
    }),
    timeoutMs: Type.Integer({
      description: 'How long the listener may wait for the local endpoint before reporting no answer.',
      examples: [15000],
    }),
    sessionUntil: Type.String({
      format: 'date-time',
      description:
        'Until when the workers leave this merchant to the listener without a new poll; after it, webhooks go to the registered URL again.',
    }),
  },
  {
    description: 'What to forward now.',
    examples: [
      {
        deliveries: [
          {
            deliveryId: '8b1d0c7e-2f3a-4e5b-9c6d-7e8f9a0b1c2d',
            leaseToken: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
            attemptNo: 1,
            webhookId: '5c8a7a47-6f7e-4f83-9a8c-3b1f0f6f9e21',
            eventType: 'CREATED',
            orderId: '0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10',
            profile: 'cleaver',
            headers: {
              'content-type': 'application/json',
              'x-app-id': 'marketplace',
              'x-app-merchantid': '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9',
              'x-app-signature': '9f2c…',
              'webhook-id': '5c8a7a47-6f7e-4f83-9a8c-3b1f0f6f9e21',
              'webhook-timestamp': '1795521600',
              'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
            },
            body: EXAMPLE_BODY,
          },
        ],
        timeoutMs: 15000,
        sessionUntil: '2026-11-24T12:00:50.000Z',
      },
    ],
  },
);

const AttemptReport = Type.Object(
  {
    leaseToken: Uuid({ description: 'The leaseToken the delivery was handed over with.' }),
    statusCode: Type.Union([Type.Integer({ minimum: 100, maximum: 599 }), Type.Null()], {
      description: 'The HTTP status the local endpoint answered, or null when it did not answer (refused, timed out).',
      examples: [200],
    }),
    durationMs: Type.Integer({ minimum: 0, description: 'How long the local request took.', examples: [12] }),
    responseSnippet: Type.Optional(
      Type.Union([Type.String({ maxLength: 4096 }), Type.Null()], {
        description: 'The start of the local answer (the first 1 KB is kept), to show in the delivery log.',
        examples: ['{"ok":true}'],
      }),
    ),
    error: Type.Optional(
      Type.Union([Type.String({ maxLength: 4096 }), Type.Null()], {
        description: 'Why there was no answer (e.g. "connect ECONNREFUSED 127.0.0.1:4000"), when statusCode is null.',
      }),
    ),
    retryAfter: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'The Retry-After header of a 429 or 503 answer: the next attempt waits at least that long.',
        examples: ['30'],
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'The local endpoint’s answer to one forwarded webhook.',
    examples: [
      { leaseToken: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', statusCode: 200, durationMs: 12, responseSnippet: 'ok' },
    ],
  },
);

const AttemptRecorded = Type.Object(
  {
    deliveryId: Uuid({ description: 'The delivery the attempt belongs to.' }),
    attemptNo: Type.Integer({ description: 'The attempt recorded.' }),
    status: Type.Enum(['PENDING', 'DELIVERED', 'FAILED'], {
      description:
        'DELIVERED after a 2xx; PENDING when another attempt is scheduled; FAILED when the retry schedule is used up.',
    }),
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When the delivery is offered again (to the listener, or to the registered URL once listening stops).',
    }),
  },
  {
    description: 'The attempt as recorded.',
    examples: [
      { deliveryId: '8b1d0c7e-2f3a-4e5b-9c6d-7e8f9a0b1c2d', attemptNo: 1, status: 'DELIVERED', nextAttemptAt: null },
    ],
  },
);

const DeliveryParams = Type.Object({
  deliveryId: Uuid({ description: 'The deliveryId handed over by POST /v1/sandbox/listen.' }),
});

const SANDBOX_ONLY = 'Sandbox only (CLEAVER_ENV=sandbox): 404 in production.';

export const webhookForwardingRoutes: FastifyPluginAsyncTypebox<{ forwarding: WebhookForwarding }> = async (
  app,
  { forwarding },
) => {
  const tags = ['sandbox'];
  app.route(
    declareRoute({
      method: 'POST',
      url: '/sandbox/listen',
      // A long poll that only reads until a delivery is reported: on the read budget.
      access: MERCHANT_READ,
      summary: 'Listen for the merchant’s webhooks instead of the registered URL (cleaver listen)',
      description:
        'Starts or keeps a listening session for the merchant of the token and waits (long-poll) for its due webhook ' +
        'deliveries. While a session lasts, the webhooks of this merchant are handed to the listener instead of being ' +
        'POSTed to the registered ordersWebhookURL, and events are delivered even when no URL was ever registered. Each ' +
        'delivery comes with the exact signed headers and body a worker would send; the listener POSTs them to its local ' +
        'URL and reports the answer to POST /v1/sandbox/listen/deliveries/{deliveryId}/attempts before the lease ends. ' +
        `A session lapses about 30 s after the last poll. ${SANDBOX_ONLY} Errors: 400 when forwardTo is not a URL.`,
      schema: { tags, body: ListenBody, response: { 200: ListenAnswer, ...errorResponses(400, 401, 429) } },
      handler: async (request, reply) => {
        const closed = new AbortController();
        reply.raw.on('close', () => closed.abort());
        return forwarding.listen(request.principal, {
          forwardTo: request.body.forwardTo,
          waitSec: request.body.waitSeconds ?? 20,
          signal: closed.signal,
        });
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/sandbox/listen/deliveries/:deliveryId/attempts',
      access: MERCHANT_WRITE,
      summary: 'Report the local answer to a forwarded webhook: it is recorded as the attempt',
      description:
        'Records the local endpoint’s answer as the delivery attempt, exactly as a worker records its own: a 2xx ' +
        'delivers; anything else (3xx, 4xx, 5xx, no answer) is retried on the retry schedule, not sooner than ' +
        'Retry-After on 429/503, and the delivery fails when the schedule is used up (spec 6). A local 410 does not ' +
        `disable the merchant’s registered webhook. ${SANDBOX_ONLY} Errors: 404 when the delivery is not one of the ` +
        'merchant’s; 409 when the lease token no longer holds the delivery (the lease ran out or the answer was already reported).',
      schema: {
        tags,
        params: DeliveryParams,
        body: AttemptReport,
        response: { 200: AttemptRecorded, ...errorResponses(400, 401, 404, 409, 429) },
      },
      handler: async (request) => forwarding.report(request.principal, request.params.deliveryId, request.body),
    }),
  );

  app.route(
    declareRoute({
      method: 'DELETE',
      url: '/sandbox/listen',
      access: MERCHANT_WRITE,
      summary: 'Stop listening: webhooks go to the registered URL again',
      description:
        'Ends the merchant’s listening session at once (cleaver listen does it on Ctrl-C). Deliveries still due are ' +
        `sent by the workers to the registered ordersWebhookURL. Answers 204 whether or not a session existed. ${SANDBOX_ONLY}`,
      schema: { tags, response: { 204: NoContent, ...errorResponses(401, 429) } },
      handler: answerNoContent((request) => forwarding.stop(request.principal)),
    }),
  );
};
