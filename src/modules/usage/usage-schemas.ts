import { Type } from 'typebox';
import { DateTime, described, Uuid } from '../../lib/schemas.js';
import { ROUTE_GROUPS } from './route-groups.js';

const Time = () => Type.Union([DateTime(), Type.Null()]);

const RouteGroup = Type.Enum([...ROUTE_GROUPS], {
  description: 'poll, acknowledge, orders-read, order-actions, catalog, onboarding or other.',
});

/** A route group's request counts, in the totals and per hour (each words its error columns its own way). */
const requestCounts = (errors4xx: string, throttled: string) => ({
  group: RouteGroup,
  requests: Type.Integer({ description: 'Requests.' }),
  errors4xx: Type.Integer({ description: errors4xx }),
  throttled: Type.Integer({ description: throttled }),
  errors5xx: Type.Integer({ description: '5xx answers.' }),
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
      ...requestCounts('answers 400–499 except 429', 'answers 429 (D23)'),
      meanLatencyMs: Type.Integer({ description: 'Mean answer time in ms.' }),
      maxLatencyMs: Type.Integer({ description: 'Slowest answer in ms.' }),
    }),
    { description: 'Totals per route group.' },
  ),
  hourly: Type.Array(
    Type.Object({
      hour: DateTime({ description: 'The hour (UTC).' }),
      ...requestCounts('4xx answers (the POS’s mistakes).', '429 answers (rate limited).'),
    }),
    { description: 'The same per hour.' },
  ),
});
