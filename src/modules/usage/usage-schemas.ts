import { Type } from 'typebox';
import { DateTime, described, Uuid } from '../../lib/schemas.js';
import { ROUTE_GROUPS } from './route-groups.js';

const Time = () => Type.Union([DateTime(), Type.Null()]);

const RouteGroup = Type.Enum([...ROUTE_GROUPS], {
  description: 'poll, acknowledge, orders-read, order-actions, catalog, onboarding or other.',
});

export const PresenceStateSchema = Type.Enum(['online', 'late', 'offline', 'never'], {
  description:
    'online: seen within the late threshold; late: within the offline threshold; offline: longer; never: not seen',
});
export type PresenceState = 'online' | 'late' | 'offline' | 'never';

/** When the POS behind a key was last seen doing what. */
export const KeyPresence = Type.Object({
  state: PresenceStateSchema,
  lastSeenAt: described(Time(), 'Last request of any kind.'),
  lastTokenAt: described(Time(), 'Last token asked.'),
  lastPollAt: described(Time(), 'Last poll.'),
  lastAcknowledgmentAt: described(Time(), 'Last acknowledgment.'),
});

export const KeyUsage = Type.Object({
  keyId: Uuid({ description: 'The integration key.' }),
  since: DateTime({ description: 'The start of the period.' }),
  presence: described(KeyPresence, 'When the key last did each thing.'),
  groups: Type.Array(
    Type.Object({
      group: RouteGroup,
      requests: Type.Integer({ description: 'Requests.' }),
      errors4xx: Type.Integer({ description: 'answers 400–499 except 429' }),
      throttled: Type.Integer({ description: 'answers 429 (D23)' }),
      errors5xx: Type.Integer({ description: '5xx answers.' }),
      meanLatencyMs: Type.Integer({ description: 'Mean answer time in ms.' }),
      maxLatencyMs: Type.Integer({ description: 'Slowest answer in ms.' }),
    }),
    { description: 'Totals per route group.' },
  ),
  hourly: Type.Array(
    Type.Object({
      hour: DateTime({ description: 'The hour (UTC).' }),
      group: RouteGroup,
      requests: Type.Integer({ description: 'Requests.' }),
      errors4xx: Type.Integer({ description: '4xx answers (the POS’s mistakes).' }),
      throttled: Type.Integer({ description: '429 answers (rate limited).' }),
      errors5xx: Type.Integer({ description: '5xx answers.' }),
    }),
    { description: 'The same per hour.' },
  ),
});
