import { describe, expect, it } from 'vitest';
import { createTokenCache, type Principal } from './token-cache.js';

const principal = (over: Partial<Principal> = {}): Principal => ({
  merchantId: 'm1',
  keyId: 'k1',
  jti: 'j1',
  expiresAt: 10_000,
  profile: 'cleaver',
  ...over,
});

describe('token cache: recheck of a principal handed out before (the per-connection memo)', () => {
  it('answers as get() would: the principal while it is valid, with its key’s current profile', () => {
    const cache = createTokenCache();
    const p = cache.set('tok', principal());
    const epoch = cache.epoch;
    expect(cache.recheck(p, epoch, 5_000)).toBe(p);
    cache.setProfile('k1', 'opendelivery');
    expect(cache.recheck(p, epoch, 5_000)?.profile).toBe('opendelivery');
    expect(cache.get('tok', 5_000)?.profile).toBe('opendelivery');
  });

  it('refuses what get() refuses: expiry, a revoked token, a deleted key', () => {
    const cache = createTokenCache();
    const a = cache.set('a', principal({ jti: 'ja' }));
    const b = cache.set('b', principal({ jti: 'jb', keyId: 'k2' }));
    const c = cache.set('c', principal({ jti: 'jc', keyId: 'k3' }));
    const epoch = cache.epoch;
    expect(cache.recheck(a, epoch, 10_000)).toBeUndefined();
    expect(cache.get('a', 10_000)).toBeUndefined();
    cache.revoke({ jti: 'jb' });
    expect(cache.recheck(b, epoch, 5_000)).toBeUndefined();
    expect(cache.get('b', 5_000)).toBeUndefined();
    cache.revoke({ keyId: 'k3' });
    expect(cache.recheck(c, epoch, 5_000)).toBeUndefined();
    expect(cache.get('c', 5_000)).toBeUndefined();
  });

  it('sends every principal back through the usual check once verified tokens are forgotten', () => {
    const cache = createTokenCache();
    const p = cache.set('tok', principal());
    const before = cache.epoch;
    cache.forgetVerified();
    expect(cache.epoch).not.toBe(before);
    expect(cache.recheck(p, before, 5_000)).toBeUndefined();
    expect(cache.get('tok', 5_000)).toBeUndefined();
    // Verified again after the forgetting: usable with the new epoch.
    const again = cache.set('tok', principal());
    expect(cache.recheck(again, cache.epoch, 5_000)).toBe(again);
  });
});
