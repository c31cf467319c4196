import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../lib/errors.js';
import { noteRequestWarning } from '../../lib/request-warning.js';
import { declareRoute, MERCHANT_READ, MERCHANT_WRITE } from '../../lib/route-declaration.js';
import { described, errorResponses, NoContent, sendNoBody, Uuid } from '../../lib/schemas.js';
import type { Principal } from '../auth/index.js';
import { ORDER_EVENT_TYPES, OrderEventTypeEnum } from './event-contract.js';
import { EventRecordSchema } from './events-schemas.js';
import { ACK_LIMIT, type EventsService, POLL_LIMIT } from './events-service.js';

const FILTER_TYPES = [...ORDER_EVENT_TYPES, 'PREPARATION_REQUESTED'] as const;
const FILTER_TYPE_SET = new Set<string>(FILTER_TYPES);
const CLEAVER_TYPE_SET = new Set<string>(ORDER_EVENT_TYPES);
/** More values than there are types is no filter anyone means; the bound keeps the work small. */
const MAX_FILTER_VALUES = FILTER_TYPES.length * 4;

/**
 * D33: `eventType` repeated, comma-separated, or both, made one list before validation; an
 * unknown type in any form is a 400 naming `eventType` (the same title whatever the form, not
 * the index of a value after splitting).
 */
async function splitEventTypeFilter(request: { query: unknown; principal: Principal | null }): Promise<void> {
  const query = request.query as { eventType?: string | string[] };
  if (query.eventType === undefined) return;
  const values = (Array.isArray(query.eventType) ? query.eventType : [query.eventType]).flatMap((v) =>
    v.split(',').map((s) => s.trim()),
  );
  if (values.length > MAX_FILTER_VALUES) {
    throw badRequest(`eventType must not name more than ${MAX_FILTER_VALUES} types (query)`);
  }
  // PREPARATION_REQUESTED is Open Delivery's (D28): a cleaver key's list is the spec's alone.
  const known = request.principal?.profile === 'opendelivery' ? FILTER_TYPE_SET : CLEAVER_TYPE_SET;
  if (values.some((v) => !known.has(v))) throw badRequest(`eventType must be one of ${[...known].join(', ')} (query)`);
  query.eventType = values;
}

/** D3 polling and spec 4.13 / D4 acknowledgment, in the calling key's dialect (D27, D28). */
export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (app, { events }) => {
  app.route(
    declareRoute({
      method: 'GET',
      // D3: the path has a literal colon; `::` escapes it in Fastify.
      url: '/events::polling',
      access: MERCHANT_READ,
      summary: 'Pending events of the calling integration key, oldest first (D3); 204 when none',
      description:
        `Every event not yet acknowledged by this integration key, oldest first, at most ${POLL_LIMIT} (spec 6; D39: ` +
        'never more than one acknowledgment takes, so acknowledging a whole poll in one request always fits). An event comes ' +
        'back in every poll until it is acknowledged, so handling must be idempotent. `eventType` filters by type: ' +
        'repeat it, separate the types with commas, or both (D33). For a ' +
        '`cleaver` key `eventId` names the event type (shared by every order, D1); for an `opendelivery` key one ' +
        'occurrence, equal to the webhook-id of its webhook (D28). The event catalog says what each type ' +
        'asks of the POS. Errors: 400 for an unknown eventType; 403 when x-polling-merchants names another merchant than the token’s.',
      schema: {
        tags: ['events'],
        querystring: Type.Object({
          eventType: Type.Optional(
            Type.Array(Type.Enum(FILTER_TYPES), {
              maxItems: MAX_FILTER_VALUES,
              description:
                'Only events of these types: repeat the parameter (`eventType=CREATED&eventType=CONFIRMED`), ' +
                'separate them with commas (`eventType=CREATED,CONFIRMED`), or both.',
            }),
          ),
        }),
        headers: Type.Object({ 'x-polling-merchants': Type.Optional(Type.String({ maxLength: 4000 })) }),
        response: {
          200: Type.Array(EventRecordSchema, {
            maxItems: POLL_LIMIT,
            description:
              'Event records (D2); an opendelivery key gets Open Delivery Events (one eventId per occurrence)',
          }),
          204: NoContent,
          ...errorResponses(400, 401, 403, 429),
        },
      },
      preValidation: splitEventTypeFilter,
      handler: async (request, reply) => {
        const records = await events.poll(request.principal, {
          eventTypes: request.query.eventType,
          pollingMerchants: request.headers['x-polling-merchants'],
        });
        if (records.length === 0) return reply.code(204).send(null);
        return records;
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/events/acknowledgment',
      access: MERCHANT_WRITE,
      summary: 'Acknowledge polled events for the calling integration key (spec 4.13, D4)',
      description:
        'Marks events as processed so they stop coming back in polls. Acknowledge only what you processed and stored. At ' +
        `most ${ACK_LIMIT} per request (a poll never returns more); repeating an acknowledgment is harmless. Every element ` +
        'is processed, in order, whatever happens to the others (D39): the answer is 202 when all succeeded, otherwise ' +
        'the first failing element’s error, with every valid element acknowledged all the same. `id` is the eventId as ' +
        'polled, in either form whatever the key’s profile: the type’s id acknowledges the event’s current occurrence, an ' +
        'occurrence id only that occurrence. Acknowledging never affects another key. eventType should be the type as ' +
        'polled. For an `opendelivery` key an occurrence id decides: another eventType is acknowledged all the same, ' +
        'with a warning in the request log and a daily notice (D39). Otherwise an eventType that is not the type the id ' +
        'names is 400 `{title: "eventType"}` (D32). Errors: 400 for a malformed list (`{title: "orderId"}` for an ' +
        'unknown order, `{title: "id"}` for an unknown id); 404 `Order not found` when an order is not the merchant’s.',
      schema: {
        tags: ['events'],
        body: Type.Array(
          Type.Object({
            id: Uuid({ description: 'The record’s unique id.' }),
            orderId: Uuid({ description: 'The order.' }),
            eventType: described(OrderEventTypeEnum, 'The event type (see the event catalog).'),
          }),
          {
            maxItems: ACK_LIMIT,
          },
        ),
        response: { 202: Type.Null(), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
      // Spec 4.13 rule 2, D39: elements are acknowledged one by one, and a failing element leaves
      // every other one acknowledged (their receipts' acknowledged_at is set; no receipt is added),
      // and a forgiven type mismatch raises its daily notice.
      rejectedMayWrite: { update: ['event_receipts'], append: ['notices'] },
      handler: async (request, reply) => {
        const { failure, warning } = await events.acknowledge(request.principal, request.body);
        if (warning) noteRequestWarning(request, warning);
        if (failure) throw failure;
        return sendNoBody(reply, 202);
      },
    }),
  );
};
