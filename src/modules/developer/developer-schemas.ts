// GET /v1/developer/requests and /v1/developer/webhooks: what a POS developer reads
// about its own integration with its own token.
import { Type } from 'typebox';
import { DateTime, Uuid, withFieldDescriptions } from '../../lib/schemas.js';
import { REQUEST_LOG_BODY_BYTES, REQUEST_LOG_HOURS, REQUEST_LOG_KEEP } from '../usage/index.js';
import { DeliveryStatus, EndpointHealth, WebhookAttempt } from '../webhooks/index.js';

export const RequestLogQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: REQUEST_LOG_KEEP, description: 'Requests in this page (default 50).' }),
  ),
  failed: Type.Optional(
    Type.Boolean({ description: 'true: only requests answered with an error (status 400 or above).' }),
  ),
  status: Type.Optional(
    Type.Integer({ minimum: 100, maximum: 599, description: 'Only requests answered with this HTTP status.' }),
  ),
  before: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,18}$',
      description: 'Where the page starts: the `next` of the previous page (older requests than those shown).',
    }),
  ),
});

const LoggedRequest = Type.Object(
  {
    requestId: Type.String({
      description: 'The X-Request-Id the answer carried: quote it to support, search your own logs with it.',
    }),
    at: DateTime({ description: 'When the request was answered.' }),
    method: Type.String({ description: 'HTTP method.', examples: ['POST'] }),
    path: Type.String({
      description: 'Path and query string as sent (at most 1,000 characters).',
      examples: ['/v1/orders/0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10/confirm'],
    }),
    status: Type.Integer({ description: 'HTTP status of the answer.', examples: [400] }),
    durationMs: Type.Integer({ description: 'Time the service took to answer, in milliseconds.' }),
    errorTitle: Type.Union([Type.String(), Type.Null()], {
      description: 'The `title` of the error answer, or null when the request succeeded.',
      examples: ['createdAt is required'],
    }),
    requestBody: Type.Union([Type.String(), Type.Null()], {
      description: `Failed requests only: the JSON body as received, at most ${REQUEST_LOG_BODY_BYTES} bytes, every secret-named field (secrets, tokens, passwords, signatures, authorization, API keys, delivery codes) replaced by "[redacted]". Null for a request that succeeded or had no body.`,
      examples: ['{"orderExternalCode":"PDV-1"}'],
    }),
    requestBodyTruncated: Type.Boolean({
      description: `Whether the body was longer than ${REQUEST_LOG_BODY_BYTES} bytes (requestBody is then its start).`,
    }),
    warning: Type.Union([Type.String(), Type.Null()], {
      description:
        'What the service forgave in this request and the client should fix, or null: an acknowledgment naming ' +
        'another eventType than the event its eventId names (D39).',
      examples: [
        'CANCELLED_DENIED acknowledged as CREATED (order …, eventId …): acknowledged by its eventId; send the eventType as polled',
      ],
    }),
  },
  { description: 'One request of the calling integration key.' },
);

export const RequestLogPage = Type.Object(
  {
    items: Type.Array(LoggedRequest, {
      description: `The key's requests, newest first: at most its last ${REQUEST_LOG_KEEP} of the last ${REQUEST_LOG_HOURS} hours.`,
    }),
    next: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `before` for the next (older) page; null on the last page.',
    }),
  },
  {
    description: 'A page of the request log of the calling key.',
    examples: [
      {
        items: [
          {
            requestId: '6b0c5c7e-1f0e-4b8e-9d7a-2f3c4d5e6f70',
            at: '2026-11-24T12:00:03.120Z',
            method: 'POST',
            path: '/v1/orders/0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10/confirm',
            status: 400,
            durationMs: 4,
            errorTitle: 'createdAt is required',
            requestBody: '{"orderExternalCode":"PDV-1"}',
            requestBodyTruncated: false,
            warning: null,
          },
          {
            requestId: '3a9d2e41-7c55-4f0b-8e63-91b2c3d4e5f6',
            at: '2026-11-24T12:00:01.004Z',
            method: 'GET',
            path: '/v1/events:polling',
            status: 200,
            durationMs: 2,
            errorTitle: null,
            requestBody: null,
            requestBodyTruncated: false,
            warning: null,
          },
        ],
        next: null,
      },
    ],
  },
);

export const DeveloperWebhooksQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Attempts to show (default 20).' })),
});

const DeveloperAttempt = Type.Object(
  {
    deliveryId: Uuid({ description: 'The delivery the attempt belongs to.' }),
    webhookId: Uuid({ description: 'The `webhook-id` header of the delivery: the same on every attempt.' }),
    orderId: Uuid({ description: 'The order the event is about.' }),
    eventType: Type.String({ description: 'The event type the webhook carried.', examples: ['CREATED'] }),
    deliveryStatus: {
      ...DeliveryStatus,
      description: 'Where the delivery stands now: PENDING (retries left), DELIVERED or FAILED.',
    },
    // The attempt as operators see it (webhooks' WebhookAttempt), in the POS developer's words.
    ...withFieldDescriptions(WebhookAttempt, {
      attemptNo: 'Which attempt of the delivery (1 = the first).',
      at: 'When the attempt started.',
      statusCode: 'What your endpoint answered, or null when it did not answer.',
      error: 'Why the attempt failed (HTTP 500, timeout, connection refused…), or null.',
      target: 'The URL the attempt was sent to.',
      responseSnippet: 'The start of what your endpoint answered (at most 1 KB), or null.',
    }).properties,
  },
  { description: 'One webhook attempt to the merchant’s endpoint.' },
);

export const DeveloperWebhooks = Type.Object(
  {
    endpoint: {
      ...EndpointHealth,
      description: 'The endpoint’s health, as operators see it (GET /admin/v1/merchants/{merchantId}/webhookHealth).',
    },
    attempts: Type.Array(DeveloperAttempt, {
      description: 'The latest attempts (of the merchant’s last 200 deliveries), newest first.',
    }),
  },
  {
    description: 'The merchant’s webhook endpoint as the platform sees it, and its latest attempts.',
    examples: [
      {
        endpoint: {
          merchantId: '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9',
          url: 'https://pos.example.com/v1/orderUpdate',
          state: 'failing',
          failingSince: '2026-11-24T11:58:00.000Z',
          lastError: 'HTTP 500',
          lastSuccessAt: '2026-11-24T11:40:12.000Z',
          lastAttemptAt: '2026-11-24T12:00:05.000Z',
          disabledAt: null,
          disabledReason: null,
        },
        attempts: [
          {
            deliveryId: '8b1d0c7e-2f3a-4e5b-9c6d-7e8f9a0b1c2d',
            webhookId: '5c8a7a47-6f7e-4f83-9a8c-3b1f0f6f9e21',
            orderId: '0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10',
            eventType: 'CREATED',
            deliveryStatus: 'PENDING',
            attemptNo: 2,
            at: '2026-11-24T12:00:05.000Z',
            statusCode: 500,
            error: 'HTTP 500',
            durationMs: 31,
            target: 'https://pos.example.com/v1/orderUpdate',
            responseSnippet: 'Internal Server Error',
          },
        ],
      },
    ],
  },
);
