// The one knob of every generated-input and property test (the fuzz suites, fast-check
// properties, randomised sweeps). `npm test` runs each at a tenth of its full count with a seed
// that changes every run and is printed at the start (vitest.config.ts), so a failure reproduces
// with `FUZZ_SEED=… npm test`; `npm run test:deep` runs the full counts (FUZZ_SCALE=1).
//
// FUZZ_SCALE  share of the full count to run (0 < scale ≤ 1; default 0.1)
// FUZZ_SEED   the seed of every generator (default: chosen by vitest.config.ts for the run)
import fc from 'fast-check';

const DEFAULT_SCALE = 0.1;

function readScale(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_SCALE;
  const scale = Number(text);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1) {
    throw new Error(`FUZZ_SCALE must be a number above 0 and at most 1, got "${text}"`);
  }
  return scale;
}

function readSeed(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be a whole number, got "${text}"`);
  return seed | 0;
}

export const FUZZ_SCALE = readScale(process.env.FUZZ_SCALE);
export const FUZZ_SEED = readSeed(process.env.FUZZ_SEED);
/** Whether this run is the full one (`npm run test:deep`). */
export const DEEP = FUZZ_SCALE === 1;

/**
 * How many generated cases to run of a test whose full count is `full`: the knob's share of it,
 * never fewer than `floor` (a property needs a few cases to mean anything) nor more than `full`.
 */
export function generatedRuns(full: number, floor = 10): number {
  return Math.min(full, Math.max(floor, Math.round(full * FUZZ_SCALE)));
}

/** Sets fast-check's seed for every property of this worker (a setup file calls it). */
export function seedGenerators(): void {
  if (FUZZ_SEED !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: FUZZ_SEED });
}

/** A seeded pseudo-random source for sweeps that do not use fast-check (mulberry32). */
export function seededRandom(salt = 0): () => number {
  let state = ((FUZZ_SEED ?? Date.now()) ^ salt) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
