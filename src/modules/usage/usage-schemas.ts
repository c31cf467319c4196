import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';
import { ROUTE_GROUPS } from './route-groups.js';

const Time = () => Type.Union([DateTime(), Type.Null()]);

export const PresenceStateSchema = Type.Enum(['online', 'late', 'offline', 'never'], {
  description:
    'online: seen within the late threshold; late: within the offline threshold; offline: longer; never: not seen',
});
export type PresenceState = 'online' | 'late' | 'offline' | 'never';

/** When the POS behind a key was last seen doing what. */
export const KeyPresence = Type.Object({
  state: PresenceStateSchema,
  lastSeenAt: Time(),
  lastTokenAt: Time(),
  lastPollAt: Time(),
  lastAcknowledgmentAt: Time(),
});

export const KeyUsage = Type.Object({
  keyId: Uuid(),
  since: DateTime(),
  presence: KeyPresence,
  groups: Type.Array(
    Type.Object({
      group: Type.Enum([...ROUTE_GROUPS]),
      requests: Type.Integer(),
      errors4xx: Type.Integer({ description: 'answers 400–499 except 429' }),
      throttled: Type.Integer({ description: 'answers 429 (D23)' }),
      errors5xx: Type.Integer(),
      meanLatencyMs: Type.Integer(),
      maxLatencyMs: Type.Integer(),
    }),
  ),
  hourly: Type.Array(
    Type.Object({
      hour: DateTime(),
      group: Type.Enum([...ROUTE_GROUPS]),
      requests: Type.Integer(),
      errors4xx: Type.Integer(),
      throttled: Type.Integer(),
      errors5xx: Type.Integer(),
    }),
  ),
});
