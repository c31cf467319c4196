// Verified tokens are remembered until they expire, so the HS256 check is paid once per token
// rather than on every request (architecture.md#stack: verify alone costs about two thirds of
// Fastify's throughput). Revocations are learnt by tailing auth_revocations (D15), profile
// changes by tailing key_profile_changes (D27), both in architecture.md#revocation-feed.
import type { IntegrationProfile } from './profiles.js';

export interface Principal {
  merchantId: string;
  keyId: string;
  jti: string;
  /** Expiry in epoch milliseconds. */
  expiresAt: number;
  /** D27: the dialect of the key, as of this request. */
  profile: IntegrationProfile;
}

export function createTokenCache(maxEntries = 100_000) {
  const verified = new Map<string, Principal>();
  const revokedJtis = new Set<string>();
  const revokedKeys = new Set<string>();
  let keysRevoked = 0;
  // Bumped when every verified token is forgotten: a principal handed out before then must go
  // through get() again (recheck below).
  let epoch = 0;
  // One entry per key this process has seen. The feed always overwrites; a database read made
  // on a cache miss only fills a gap, so a read that started before a change and finished after
  // the feed delivered it cannot bring the old profile back.
  const profiles = new Map<string, IntegrationProfile>();

  /** The principal with its key's current profile: a change is seen on the very next request. */
  function current(principal: Principal): Principal {
    const profile = profiles.get(principal.keyId);
    if (profile !== undefined && profile !== principal.profile) principal.profile = profile;
    return principal;
  }

  /** Expired, its token revoked or its key deleted: what get() and recheck() both refuse. */
  const unusable = (principal: Principal, nowMs: number) =>
    principal.expiresAt <= nowMs || revokedJtis.has(principal.jti) || revokedKeys.has(principal.keyId);

  return {
    get(token: string, nowMs: number): Principal | undefined {
      const principal = verified.get(token);
      if (!principal) return undefined;
      if (unusable(principal, nowMs)) {
        verified.delete(token);
        return undefined;
      }
      return current(principal);
    },
    /**
     * A principal get() or set() handed out earlier, checked again without looking its token up
     * (a lookup hashes the whole 330-character token, about half a microsecond): the answer get()
     * would give (expiry, revocations, the key's current profile), or undefined when the token
     * must go through get() again, also when every verified token was forgotten since `epochSeen`.
     */
    recheck(principal: Principal, epochSeen: number, nowMs: number): Principal | undefined {
      if (epochSeen !== epoch || unusable(principal, nowMs)) return undefined;
      return current(principal);
    },
    /** Changes whenever every verified token is forgotten (recheck). */
    get epoch() {
      return epoch;
    },
    set(token: string, principal: Principal): Principal {
      if (verified.size >= maxEntries) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = verified.keys().next().value;
        if (oldest !== undefined) verified.delete(oldest);
      }
      if (!profiles.has(principal.keyId)) profiles.set(principal.keyId, principal.profile);
      verified.set(token, principal);
      return current(principal);
    },
    /** Why a principal may no longer be used, if it may not. */
    revocationOf(principal: Pick<Principal, 'jti' | 'keyId'>): 'key' | 'token' | undefined {
      if (revokedKeys.has(principal.keyId)) return 'key';
      if (revokedJtis.has(principal.jti)) return 'token';
      return undefined;
    },
    revoke(revocation: { jti?: string | null; keyId?: string | null }): void {
      if (revocation.jti) revokedJtis.add(revocation.jti);
      if (revocation.keyId && !revokedKeys.has(revocation.keyId)) {
        revokedKeys.add(revocation.keyId);
        keysRevoked += 1;
      }
    },
    /** Keys this process has learnt were deleted (here or, by the feed, elsewhere): a count. */
    keysRevoked: () => keysRevoked,
    /** A profile change from the feed or from this process's own PATCH: always wins. */
    setProfile(keyId: string, profile: IntegrationProfile): void {
      profiles.set(keyId, profile);
    },
    /**
     * Forget every verified token and profile (revocations stay): after the feed could not be
     * read for longer than its rows are kept, changes may have been missed, so every token is
     * verified again against the database on its next use.
     */
    forgetVerified(): void {
      epoch += 1;
      verified.clear();
      profiles.clear();
    },
    get size() {
      return verified.size;
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
