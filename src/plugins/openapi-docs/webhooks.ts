// OpenAPI 3.1 `webhooks`: what the service POSTs to the POS (spec 6), with its headers and
// signature scheme, one operation per event type so each shows its own example.
import { ORDER_EVENT_TYPES } from '../../modules/events/index.js';
import { EVENT_DOCS, exampleRecord } from './event-catalog.js';

type Json = Record<string, unknown>;

const header = (name: string, description: string, example: string): Json => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

const HEADERS: Json[] = [
  header(
    'webhook-id',
    'The delivery’s id: the same on every retry of this delivery. De-duplicate on it.',
    '5c8a7a47-6f7e-4f83-9a8c-3b1f0f6f9e21',
  ),
  header(
    'webhook-timestamp',
    'Unix seconds when this attempt was signed. Reject a timestamp more than 5 minutes from your clock.',
    '1795521600',
  ),
  header(
    'webhook-signature',
    'Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with ' +
      'the UTF-8 bytes of the client_secret of the integration key that registered the URL. A Standard Webhooks ' +
      'library verifies it with the secret `whsec_` + base64(client_secret).',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
  header(
    'x-app-signature',
    'Lowercase hex HMAC-SHA256 of the exact body bytes with the same key (the Open Delivery style signature).',
    '9f2c0a…',
  ),
  header(
    'x-app-id',
    'The marketplace application id (sourceAppId of the record).',
    '0b5e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b',
  ),
  header('x-app-merchantid', 'The merchant the event belongs to.', '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9'),
];

const RECORD_SCHEMA: Json = {
  type: 'object',
  required: ['eventId', 'eventType', 'orderId', 'orderURL', 'createdAt', 'sourceAppId'],
  properties: {
    eventId: {
      type: 'string',
      format: 'uuid',
      description:
        'What polling acknowledges: the event type’s id (cleaver key) or this occurrence’s id (opendelivery key).',
    },
    eventType: { type: 'string', enum: [...ORDER_EVENT_TYPES], description: 'The event type (see x-event-catalog).' },
    orderId: { type: 'string', format: 'uuid', description: 'The order; read it with GET /v1/orders/{orderId}.' },
    orderURL: { type: 'string', description: 'The full URL of that read.' },
    createdAt: { type: 'string', format: 'date-time', description: 'When the event happened (UTC).' },
    sourceAppId: { type: 'string', format: 'uuid', description: 'The marketplace application that raised it.' },
    metadata: {
      type: 'object',
      description: 'Only on cancellation events, PICKUP_AREA_ASSIGNED and the opt-in WEIGHING_DECIDED.',
      properties: {
        clientId: { type: 'string', description: 'The integration key that caused the event.' },
        reason: { type: 'string', description: 'Why, in words.' },
        code: { type: 'string', description: 'Why, as a code (e.g. UNAVAILABLE_ITEM, DELIVERY_PROBLEM).' },
        mode: { type: 'string', description: 'AUTO or MANUAL.' },
        pickupArea: { type: 'string', description: 'The pickup area assigned.' },
        weighingId: { type: 'string', format: 'uuid', description: 'WEIGHING_DECIDED: the weighing decided.' },
        decision: {
          type: 'string',
          enum: ['ACCEPT', 'REJECT', 'REMOVE_LINES'],
          description: 'WEIGHING_DECIDED: what was decided.',
        },
        by: { type: 'string', enum: ['platform', 'deadline'], description: 'WEIGHING_DECIDED: who decided.' },
      },
    },
  },
};

const RESPONSES: Json = {
  '200': { description: 'Any 2xx within 15 seconds: delivered. The body is ignored.' },
  '410': { description: 'Gone: the webhook is disabled until the merchant registers its ordersWebhookURL again.' },
  '429': { description: 'Retried on the schedule, never sooner than the Retry-After header (also for 503).' },
  default: {
    description:
      'Anything else (3xx is never followed, 4xx, 5xx, no answer within 15 s) is a failed attempt, retried with the ' +
      'same webhook-id and body on the retry schedule until it runs out (FAILED; an operator can replay it).',
  },
};

function webhookOperation(path: string, dialect: string): Json {
  const examples = Object.fromEntries(
    ORDER_EVENT_TYPES.map((type) => [type, { summary: EVENT_DOCS[type]?.when ?? type, value: exampleRecord(type) }]),
  );
  return {
    post: {
      operationId: path === '/v1/orderUpdate' ? 'webhookOrderUpdate' : 'webhookNewEvent',
      summary: `An order event, POSTed to {ordersWebhookURL}${path} (${dialect})`,
      description:
        `Sent for every event of the merchant’s orders while its ordersWebhookURL is registered, with ${path} appended ` +
        `(${dialect}). The body is the record polling returns, fixed when the event happened: every retry sends the same ` +
        'bytes under the same webhook-id. Delivery is at least once and in order per order (a later event of an order ' +
        'waits until the earlier one is delivered or failed). Verify the signature on the raw body before parsing, answer ' +
        '2xx quickly, and process asynchronously; de-duplicate on webhook-id, or across webhooks and polling on ' +
        'orderId, eventType and createdAt together (never on eventId alone: for a cleaver key it names the type). ' +
        'What each event type asks of the POS: ' +
        'x-event-catalog, and /docs/events.',
      security: [],
      parameters: HEADERS,
      requestBody: {
        required: true,
        description: 'The event record.',
        content: { 'application/json': { schema: RECORD_SCHEMA, examples } },
      },
      responses: RESPONSES,
    },
  };
}

export function openApiWebhooks(): Json {
  return {
    orderUpdate: webhookOperation('/v1/orderUpdate', 'a URL registered by a cleaver key'),
    newEvent: webhookOperation('/v1/newEvent', 'a URL registered by an opendelivery key; one notification per denial'),
  };
}

export const EVENT_CATALOG_EXTENSION = {
  key: 'x-event-catalog',
  value: ORDER_EVENT_TYPES.map((type) => ({
    eventType: type,
    when: EVENT_DOCS[type]?.when,
    posShould: EVENT_DOCS[type]?.todo,
    example: exampleRecord(type),
  })),
};
