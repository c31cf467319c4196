// The production service's environment (scripts/service-env.mjs, docs/adr/0008-malloc-mmap-threshold.md):
// a fixed malloc mmap threshold unless the operator chose one.
import { describe, expect, it } from 'vitest';
import { MMAP_THRESHOLD, serviceEnv } from '../../scripts/service-env.mjs';

describe('service environment', () => {
  it('fixes glibc’s mmap threshold at its initial 128 KiB and keeps the rest of the environment', () => {
    const env = serviceEnv({ PORT: '8080', DATABASE_URL: 'postgres://db/cleaver' });
    expect(env).toEqual({ PORT: '8080', DATABASE_URL: 'postgres://db/cleaver', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(MMAP_THRESHOLD).toBe(String(128 * 1024));
  });

  it('leaves an operator’s own threshold alone, as a variable or as a glibc tunable', () => {
    expect(serviceEnv({ MALLOC_MMAP_THRESHOLD_: '65536' })).toEqual({ MALLOC_MMAP_THRESHOLD_: '65536' });
    const tunables = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=262144' };
    expect(serviceEnv(tunables)).toEqual(tunables);
    // Another tunable alone does not count as a threshold.
    expect(serviceEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).toEqual({
      GLIBC_TUNABLES: 'glibc.malloc.arena_max=2',
      MALLOC_MMAP_THRESHOLD_: '131072',
    });
  });

  it('returns a copy: the caller’s environment is not changed', () => {
    const mine = { PORT: '1' };
    serviceEnv(mine);
    expect(mine).toEqual({ PORT: '1' });
  });
});
