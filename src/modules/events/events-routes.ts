import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DateTime, errorResponses, NoContent, Uuid } from '../../lib/schemas.js';
import { ORDER_EVENT_TYPES } from './event-contract.js';
import { ACK_LIMIT, type EventsService } from './events-service.js';

const EventRecordSchema = Type.Object({
  eventId: Uuid(),
  eventType: Type.Enum(ORDER_EVENT_TYPES),
  orderId: Uuid(),
  orderURL: Type.String(),
  createdAt: DateTime(),
  sourceAppId: Uuid(),
  metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

/** D3 polling and spec 4.13 / D4 acknowledgment. */
export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (app, { events }) => {
  app.get(
    // D3: the path has a literal colon; `::` escapes it in Fastify.
    '/v1/events::polling',
    {
      config: { rateLimit: 'read' },
      schema: {
        tags: ['events'],
        summary: 'Pending events of the calling integration key, oldest first (D3); 204 when none',
        security: [{ bearer: [] }],
        querystring: Type.Object({
          eventType: Type.Optional(
            Type.Array(Type.Enum(ORDER_EVENT_TYPES), { maxItems: ORDER_EVENT_TYPES.length * 4 }),
          ),
        }),
        headers: Type.Object({ 'x-polling-merchants': Type.Optional(Type.String({ maxLength: 4000 })) }),
        response: { 200: Type.Array(EventRecordSchema), 204: NoContent, ...errorResponses(400, 401, 403, 429) },
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
    '/v1/events/acknowledgment',
    {
      schema: {
        tags: ['events'],
        summary: 'Acknowledge polled events for the calling integration key (spec 4.13, D4)',
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
