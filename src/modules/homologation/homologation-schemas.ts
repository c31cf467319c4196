import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';
import { DEFAULT_TIMINGS, TIMING_DESCRIPTIONS, TimingOverrides, type Timings } from './homologation-timings.js';

const NAMES_OF_TIMINGS = Object.keys(DEFAULT_TIMINGS) as Array<keyof Timings>;

export const StartBody = Type.Object(
  {
    timings: Type.Optional(TimingOverrides),
  },
  { additionalProperties: false, description: '`{}`, or timings (milliseconds) overriding the defaults' },
);

export const CriterionView = Type.Object({
  id: Type.String({ description: 'The record’s unique id.' }),
  title: Type.String({ description: 'What went wrong, naming the field.' }),
  rule: Type.String({ description: 'The spec section or decision the criterion comes from' }),
  required: Type.Boolean({
    description:
      'Whether the run can only PASS when this criterion passes (a criterion whose trigger the POS may skip is not required when not observed).',
  }),
  result: Type.Enum(['pass', 'fail', 'not_observed', 'pending'], { description: 'How it ended.' }),
  evidence: Type.Array(Type.String(), { description: 'The requests and answers seen, with times from the start' }),
});

export const RunView = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  keyId: Uuid({ description: 'The integration key.' }),
  merchantId: Uuid({ description: 'The merchant (the client_id of its integration keys).' }),
  status: Type.Enum(['RUNNING', 'PASSED', 'FAILED', 'CANCELLED'], { description: 'Its current status.' }),
  startedAt: DateTime({ description: 'When processing started, or null.' }),
  finishedAt: Type.Optional(DateTime({ description: 'When processing ended, or null.' })),
  timings: Type.Object(
    Object.fromEntries(NAMES_OF_TIMINGS.map((n) => [n, Type.Integer({ description: TIMING_DESCRIPTIONS[n] })])),
    {
      description: 'The timings of the run (ms): defaults, environment, then the start body',
    },
  ) as unknown as ReturnType<typeof Type.Unsafe<Timings>>,
  warnings: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Present when durationMs is shorter than the run's own steps need: a failure may only reflect the duration",
    }),
  ),
  orders: Type.Array(
    Type.Object({
      orderId: Uuid({ description: 'The order.' }),
      scenario: Type.String({ description: 'The scenario’s name (GET /v1/sandbox/scenarios lists them).' }),
      deliveryCode: Type.String({ description: 'What the customer tells the courier (validateCode, spec 4.11)' }),
    }),
    { description: 'Orders.' },
  ),
  criteria: Type.Array(CriterionView, {
    description:
      'The graded criteria, each with the rule it comes from, its result (pass, fail, not_observed, pending) and the evidence.',
  }),
  signature: Type.Optional(
    Type.String({ description: 'Ed25519 (base64) over the canonical JSON of the report without signature' }),
  ),
});

export const SigningKeyView = Type.Object({
  algorithm: Type.Literal('Ed25519', { description: 'The signature algorithm: Ed25519.' }),
  publicKey: Type.String({ description: 'SPKI PEM' }),
});

export const RunParams = Type.Object({ id: Uuid() });
export const KeyParams = Type.Object({ merchantId: Uuid(), keyId: Uuid() });
