// The timings of a homologation run: defaults (documented in the module README and in
// docs/adr/homologation.md), environment overrides (CLEAVER_HOMOLOGATION_<NAME>, in ms)
// and per-run overrides from the start body. A whole run stays under ten minutes by default;
// tests pass seconds.
import { Type } from 'typebox';
import { badRequest } from '../../lib/errors.js';

export interface Timings {
  /** Wall time of the run: scenarios are played early, then the POS gets the rest to finish. */
  durationMs: number;
  /**
   * The scenarios start with the key's first request (its POS is up), or after this long
   * without one; the injected 401/429/503 follow the last scenario.
   */
  waitForPosMs: number;
  /** Between two scenario plays. */
  scenarioSpacingMs: number;
  /** CREATED → confirm or requestCancellation. */
  confirmDeadlineMs: number;
  /** ORDER_CANCELLATION_REQUEST → acceptCancellation or denyCancellation (spec 4.10). */
  cancellationDeadlineMs: number;
  /** Polling cadence band: median interval between two polls. */
  pollMinIntervalMs: number;
  pollMaxIntervalMs: number;
  /** A burst: more than pollBurstMax polls inside pollBurstWindowMs. */
  pollBurstWindowMs: number;
  pollBurstMax: number;
  /** Retry-After the sandbox sends with its injected 429 and 503; a retry sooner is no backoff. */
  retryAfterSec: number;
  /** Between two injected answers (401, 429, 503). */
  injectionGapMs: number;
}

export const DEFAULT_TIMINGS: Timings = {
  durationMs: 8 * 60_000,
  waitForPosMs: 60_000,
  scenarioSpacingMs: 5_000,
  confirmDeadlineMs: 60_000,
  cancellationDeadlineMs: 60_000,
  pollMinIntervalMs: 1_000,
  pollMaxIntervalMs: 60_000,
  pollBurstWindowMs: 1_000,
  pollBurstMax: 3,
  retryAfterSec: 2,
  injectionGapMs: 10_000,
};

/** What each timing means, for the published document (the start body and a run’s view). */
export const TIMING_DESCRIPTIONS: Record<keyof Timings, string> = {
  durationMs: 'Wall time of the run (default 480000: 8 minutes; at most 600000).',
  waitForPosMs: 'Scenarios start with the key’s first request, or after this long without one (default 60000).',
  scenarioSpacingMs: 'Time between two scenario orders (default 5000).',
  confirmDeadlineMs: 'How long the POS has to confirm or cancel a new order (default 60000).',
  cancellationDeadlineMs:
    'How long the POS has to accept or deny a customer’s cancellation request (default 60000; spec 4.10).',
  pollMinIntervalMs: 'Lower bound of the median time between two polls (default 1000).',
  pollMaxIntervalMs: 'Upper bound of the median time between two polls (default 60000).',
  pollBurstWindowMs: 'Window in which more than pollBurstMax polls count as a burst (default 1000).',
  pollBurstMax: 'Most polls allowed inside pollBurstWindowMs (default 3).',
  retryAfterSec:
    'Seconds in the Retry-After of the injected 429 and 503 (default 2); retrying sooner is not backing off.',
  injectionGapMs: 'Time between two injected answers (401, 429, 503) (default 10000).',
};

const NAMES = Object.keys(DEFAULT_TIMINGS) as Array<keyof Timings>;
/** The ten-minute promise holds for any run: no override may make one longer. */
const MAX_DURATION_MS = 10 * 60_000;

export const TimingOverrides = Type.Object(
  Object.fromEntries(
    NAMES.map((n) => [
      n,
      Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DURATION_MS, description: TIMING_DESCRIPTIONS[n] })),
    ]),
  ),
  { additionalProperties: false },
);

const envName = (name: string) => `CLEAVER_HOMOLOGATION_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/**
 * What is wrong with the CLEAVER_HOMOLOGATION_* variables of `env`, if anything: a name that is
 * no timing, or a value that is not a whole number from 1 to 600,000. Said when the service
 * starts (services.ts), since a run would otherwise quietly use the default instead.
 */
export function timingEnvProblem(env: Record<string, string | undefined>): string | null {
  const known = NAMES.map(envName);
  for (const [key, raw] of Object.entries(env)) {
    if (!key.startsWith('CLEAVER_HOMOLOGATION_') || raw === undefined) continue;
    if (!known.includes(key)) return `${key} is not a homologation timing (known: ${known.join(', ')})`;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_DURATION_MS) {
      return `${key} must be a whole number from 1 to ${MAX_DURATION_MS}, got "${raw}"`;
    }
  }
  return null;
}

/** Defaults, then the environment (CLEAVER_HOMOLOGATION_DURATION_MS…), then the body. */
export function resolveTimings(
  overrides: Partial<Timings> | undefined,
  env: Record<string, string | undefined> = {},
): Timings {
  const timings = { ...DEFAULT_TIMINGS };
  for (const name of NAMES) {
    const raw = env[envName(name)];
    if (raw !== undefined && /^\d+$/.test(raw)) timings[name] = Number(raw);
    const given = overrides?.[name];
    if (given !== undefined) timings[name] = given;
  }
  if (timings.pollMinIntervalMs > timings.pollMaxIntervalMs) {
    throw badRequest('timings.pollMinIntervalMs must not exceed timings.pollMaxIntervalMs');
  }
  if (timings.durationMs > MAX_DURATION_MS) throw badRequest('timings.durationMs must be at most 600000');
  return timings;
}

/**
 * About how long the run's own steps take once the POS is up: the scenarios placed one spacing
 * apart, the three injected answers one gap apart after them, then the longer of the two answer
 * deadlines for the last order. A run shorter than this ends before its scenarios could be
 * answered, so a failure may only reflect the duration (the warning of the report says so).
 */
export function neededDurationMs(timings: Timings, scenarioCount: number): number {
  return (
    Math.max(0, scenarioCount - 1) * timings.scenarioSpacingMs +
    3 * timings.injectionGapMs +
    Math.max(timings.confirmDeadlineMs, timings.cancellationDeadlineMs)
  );
}

/** The warning of a run shorter than its steps need, or none. */
export function shortRunWarnings(timings: Timings, scenarioCount: number): string[] {
  const needed = neededDurationMs(timings, scenarioCount);
  if (timings.durationMs >= needed) return [];
  return [
    `durationMs ${timings.durationMs} is shorter than the ${needed} ms this run's steps need ` +
      `(${scenarioCount} scenarios ${timings.scenarioSpacingMs} ms apart, 3 injected answers ${timings.injectionGapMs} ms apart, ` +
      `then ${Math.max(timings.confirmDeadlineMs, timings.cancellationDeadlineMs)} ms to answer): ` +
      'a failure or NOT OBSERVED may only reflect the duration; run again with a longer one',
  ];
}
