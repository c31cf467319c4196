// Verified tokens are remembered until they expire, so the HS256 check is paid once per token
// rather than on every request (ARCHITECTURE.md: verify alone costs about two thirds of
// Fastify's throughput). Revocations are learnt by tailing auth_revocations (D15).

export interface Principal {
  merchantId: string;
  keyId: string;
  jti: string;
  /** Expiry in epoch milliseconds. */
  expiresAt: number;
}

export function createTokenCache(maxEntries = 100_000) {
  const verified = new Map<string, Principal>();
  const revokedJtis = new Set<string>();
  const revokedKeys = new Set<string>();

  return {
    get(token: string, nowMs: number): Principal | undefined {
      const principal = verified.get(token);
      if (!principal) return undefined;
      if (principal.expiresAt <= nowMs || revokedJtis.has(principal.jti) || revokedKeys.has(principal.keyId)) {
        verified.delete(token);
        return undefined;
      }
      return principal;
    },
    set(token: string, principal: Principal): void {
      if (verified.size >= maxEntries) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = verified.keys().next().value;
        if (oldest !== undefined) verified.delete(oldest);
      }
      verified.set(token, principal);
    },
    /** Why a principal may no longer be used, if it may not. */
    revocationOf(principal: Pick<Principal, 'jti' | 'keyId'>): 'key' | 'token' | undefined {
      if (revokedKeys.has(principal.keyId)) return 'key';
      if (revokedJtis.has(principal.jti)) return 'token';
      return undefined;
    },
    revoke(revocation: { jti?: string | null; keyId?: string | null }): void {
      if (revocation.jti) revokedJtis.add(revocation.jti);
      if (revocation.keyId) revokedKeys.add(revocation.keyId);
    },
    get size() {
      return verified.size;
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
