import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import { ORDER_EVENT_TYPES } from './event-contract.js';
import { EventRecordSchema } from './events-schemas.js';
import { ACK_LIMIT, type EventsService } from './events-service.js';

const FILTER_TYPES = [...ORDER_EVENT_TYPES, 'PREPARATION_REQUESTED'] as const;

/** D3 polling and spec 4.13 / D4 acknowledgment, in the calling key's dialect (D27, D28). */
export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (app, { events }) => {
  app.get(
    // D3: the path has a literal colon; `::` escapes it in Fastify.
    '/events::polling',
    {
      config: { rateLimit: 'read' },
      schema: {
        tags: ['events'],
        summary: 'Pending events of the calling integration key, oldest first (D3); 204 when none',
        description:
          'The same records in both profiles (D27), which differ in what `eventId` names: for a `cleaver` key the ' +
          'event type, shared by every order (D1); for an `opendelivery` key one occurrence, a new id each time ' +
          'something happens, equal to the webhook-id of its webhook (D28). Cancellation metadata of an ' +
          'opendelivery key uses Open Delivery’s codes. PREPARATION_REQUESTED may be named by an opendelivery ' +
          'key only (the platform never raises it).',
        security: [{ bearer: [] }],
        querystring: Type.Object({
          eventType: Type.Optional(Type.Array(Type.Enum(FILTER_TYPES), { maxItems: FILTER_TYPES.length * 4 })),
        }),
        headers: Type.Object({ 'x-polling-merchants': Type.Optional(Type.String({ maxLength: 4000 })) }),
        response: {
          200: Type.Array(EventRecordSchema, {
            description:
              'Event records (D2); an opendelivery key gets Open Delivery Events (one eventId per occurrence)',
          }),
          204: NoContent,
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const records = await events.poll(request.principal, {
        eventTypes: request.query.eventType,
        pollingMerchants: request.headers['x-polling-merchants'],
      });
      if (records.length === 0) return reply.code(204).send(null);
      return records;
    },
  );

  app.post(
    '/events/acknowledgment',
    {
      schema: {
        tags: ['events'],
        summary: 'Acknowledge polled events for the calling integration key (spec 4.13, D4)',
        description:
          '`id` is the eventId as polled, in either form whatever the key’s profile: the type’s id (D1) ' +
          'acknowledges the event’s current occurrence; an occurrence id (the opendelivery eventId, D28) ' +
          'acknowledges that occurrence only. Acknowledging never affects another key.',
        security: [{ bearer: [] }],
        body: Type.Array(Type.Object({ id: Uuid(), orderId: Uuid(), eventType: Type.Enum(ORDER_EVENT_TYPES) }), {
          maxItems: ACK_LIMIT,
        }),
        response: { 202: Type.Null(), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      await events.acknowledge(request.principal, request.body);
      return reply.code(202).send(null);
    },
  );
};
