// The environment the production service runs in. `npm start` (scripts/start.mjs) gives it to the
// service's process, and the benchmarks that start dist/ use it too, so that they measure what
// `npm start` runs. Decision and figures: docs/adr/0008-malloc-mmap-threshold.md.

/** glibc's own initial mmap threshold (128 KiB), fixed instead of left to rise. */
export const MMAP_THRESHOLD = '131072';

/**
 * `env` plus a fixed malloc mmap threshold, unless the operator has set one (the environment
 * variable or the glibc tunable). C libraries other than glibc ignore the variable.
 */
export function serviceEnv(env = process.env) {
  const own =
    env.MALLOC_MMAP_THRESHOLD_ !== undefined || /glibc\.malloc\.mmap_threshold/.test(env.GLIBC_TUNABLES ?? '');
  return own ? { ...env } : { ...env, MALLOC_MMAP_THRESHOLD_: MMAP_THRESHOLD };
}
