import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';

export const Notice = Type.Object({
  id: Type.String({ description: 'Increasing; also the list cursor' }),
  at: DateTime(),
  kind: Type.String({ description: 'e.g. webhook.failing, webhook.recovered, webhook.disabled' }),
  merchantId: Type.Union([Uuid(), Type.Null()]),
  message: Type.String({ description: 'One line for a person' }),
  detail: Type.Object(
    {
      url: Type.Optional(Type.String()),
      error: Type.Optional(Type.String()),
      failingSince: Type.Optional(DateTime()),
      reason: Type.Optional(Type.String()),
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
