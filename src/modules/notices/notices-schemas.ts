import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';

export const Notice = Type.Object({
  id: Type.String({ description: 'Increasing; also the list cursor' }),
  at: DateTime({ description: 'When it happened.' }),
  kind: Type.String({
    description: 'e.g. webhook.failing, webhook.recovered, webhook.disabled, acknowledgment.type-mismatch (D39)',
  }),
  merchantId: Type.Union([Uuid(), Type.Null()], {
    description: 'The merchant (the client_id of its integration keys).',
  }),
  message: Type.String({ description: 'One line for a person' }),
  detail: Type.Object(
    {
      url: Type.Optional(Type.String({ description: 'The URL.' })),
      error: Type.Optional(Type.String({ description: 'The last error of the endpoint.' })),
      failingSince: Type.Optional(DateTime({ description: 'Since when every attempt failed, or null.' })),
      reason: Type.Optional(Type.String({ description: 'Why, in words.' })),
      keyId: Type.Optional(Uuid({ description: 'The integration key concerned.' })),
      eventType: Type.Optional(Type.String({ description: 'The type of the event acknowledged (D39).' })),
      acknowledgedAs: Type.Optional(
        Type.String({ description: 'The type the acknowledgment named instead (D39): the client maps it wrongly.' }),
      ),
      orderId: Type.Optional(Uuid({ description: 'The order.' })),
    },
    { description: 'What the notice is about' },
  ),
});

export const NoticeListQuery = Type.Object({
  merchantId: Type.Optional(Uuid()),
  kind: Type.Optional(Type.String({ maxLength: 100 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })),
});
