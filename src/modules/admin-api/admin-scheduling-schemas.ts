// D44: the scheduling settings of a merchant and its slots, as the operator API shows them.
import { Type } from 'typebox';
import { DateTime } from '../../lib/schemas.js';

const TIME = '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$';
const Day = Type.Enum(['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY']);
const HoursEntry = Type.Object({
  dayOfWeek: Type.Array(Day, { minItems: 1, maxItems: 7, description: 'The days these hours hold on.' }),
  timePeriods: Type.Object(
    {
      startTime: Type.String({ pattern: TIME, description: 'Opening, HH:MM.', examples: ['08:00'] }),
      endTime: Type.String({ pattern: TIME, description: 'Closing, HH:MM (24:00: midnight).', examples: ['18:00'] }),
    },
    { description: 'Local time of America/Sao_Paulo.' },
  ),
});

const fields = {
  slotMinutes: Type.Integer({ minimum: 15, maximum: 240, description: 'Length of a slot (15–240; default 60).' }),
  capacityPerSlot: Type.Integer({ minimum: 1, maximum: 1000, description: 'Orders per slot (default 10).' }),
  horizonDays: Type.Integer({ minimum: 1, maximum: 365, description: 'How many days ahead (default 14).' }),
  confirmWithinMinutes: Type.Integer({
    minimum: 1,
    maximum: 1440,
    description: 'A scheduled order not confirmed this long after intake is cancelled (default 30).',
  }),
  hours: Type.Array(HoursEntry, {
    maxItems: 14,
    description: 'The store’s hours, which slots are cut from (default every day 00:00–24:00).',
  }),
};

export const SchedulingInput = Type.Object(
  {
    slotMinutes: Type.Optional(fields.slotMinutes),
    capacityPerSlot: Type.Optional(fields.capacityPerSlot),
    horizonDays: Type.Optional(fields.horizonDays),
    confirmWithinMinutes: Type.Optional(fields.confirmWithinMinutes),
    hours: Type.Optional(fields.hours),
  },
  { description: 'D44: encomendas’ settings; the fields sent replace the current ones.' },
);

export const SchedulingView = Type.Object(fields, {
  description: 'D44: encomendas’ settings (slots, capacity, horizon, confirmation time, store hours).',
});

export const SlotsQuery = Type.Object({
  from: Type.Optional(DateTime({ description: 'First slot start (default now).' })),
  to: Type.Optional(DateTime({ description: 'Slots starting before this (default the horizon’s end; ≤ 31 days).' })),
});

export const SlotList = Type.Array(
  Type.Object({
    start: DateTime({ description: 'When the slot starts.' }),
    end: DateTime({ description: 'When it ends.' }),
    capacity: Type.Integer({ description: 'Orders it takes.' }),
    left: Type.Integer({ description: 'Places left (0 while the store is paused).' }),
  }),
  { description: 'The slots, oldest first.' },
);
