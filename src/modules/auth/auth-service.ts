import DataLoader from 'dataloader';
import { createSigner, createVerifier } from 'fast-jwt';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import { type Clock, epochMs } from '../../lib/clock.js';
import { decryptSecret, deriveKey, encryptSecret, hmacSha256Hex, randomToken, safeEqual } from '../../lib/crypto.js';
import { AppError, unauthorized } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { spacedSchedule } from '../../lib/spaced-schedule.js';
import * as repo from './auth-repository.js';
import { DEFAULT_PROFILE, type IntegrationProfile } from './profiles.js';
import { createTokenCache, type Principal } from './token-cache.js';

export const TOKEN_LIFETIME_SEC = 43_200; // spec 2.1, 8: fixed
// Exported for bench/poll-storm.ts, which mints 100,000 tokens without 100,000 token requests.
export const ISSUER = 'cleaver';
export const AUDIENCE = 'cleaver:merchant-api';
const REVOCATION_POLL_MS = 250; // D15: revocation reaches every instance within 1 s
/** The least time between two statements that check tokens new to this process (spacedSchedule). */
const TOKEN_STATE_GAP_MS = 5;
/** Feed rows are kept as long as a token lives (D15; key_profile_changes likewise). */
const FEED_RETENTION_MS = TOKEN_LIFETIME_SEC * 1000;

export interface TokenResponse {
  access_token: string;
  /** `Bearer` as the spec shows it (2.1); `bearer`, Open Delivery's only value, for opendelivery keys (D28). */
  token_type: 'Bearer' | 'bearer';
  expires_in: number;
}

export const invalidClientCredentials = () =>
  new AppError(401, 'The client credentials were incorrect.', {
    // D13: one body carrying both shapes of spec 7.
    body: { error: 'invalid_credentials', message: 'The client credentials were incorrect.' },
    headers: { 'www-authenticate': 'Basic realm="cleaver"' },
  });

/**
 * D14: a client secret carries its key id (`cs_<key id hex>_<random>`), so finding the key is
 * one indexed read; the secret itself is compared as a keyed hash in constant time.
 */
function makeSecret(keyId: string): string {
  return `cs_${keyId.replace(/-/g, '')}_${randomToken(32)}`;
}

function keyIdFromSecret(secret: string): string | undefined {
  const h = /^cs_([0-9a-f]{32})_[A-Za-z0-9_-]{43}$/.exec(secret)?.[1];
  if (!h) return undefined;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function createAuthService(deps: { db: Db; config: Pick<Config, 'secretKey'>; clock: Clock }) {
  const { db, clock } = deps;
  const jwtSecret = deriveKey(deps.config.secretKey, 'jwt-hs256');
  // Tokens are checked synchronously with node:crypto (fast-jwt). WebCrypto's verify (jose) hands
  // every token to the libuv thread pool and back: 35-85 µs of CPU per token against 13 µs, the
  // largest cost of a poll whose token is new to the process (docs/benchmarks.md, "Poll storm").
  const verifyJwt = createVerifier({
    key: jwtSecret,
    algorithms: ['HS256'], // pinned: no `none`, no algorithm confusion (D14)
    allowedIss: ISSUER,
    allowedAud: AUDIENCE,
    // Expiry is checked against the service's clock below (tests move it); fast-jwt reads the system's.
    ignoreExpiration: true,
    ignoreNotBefore: true,
    cache: false,
  });
  const sealKey = deriveKey(deps.config.secretKey, 'secret-encryption');
  const hashKey = deriveKey(deps.config.secretKey, 'secret-hash');
  const cache = createTokenCache();
  // Tokens new to this process are checked against the database together: the requests that
  // bring a new token within TOKEN_STATE_GAP_MS of the last statement share the next one (a storm
  // of first polls after a start or a deploy; docs/benchmarks.md, "Poll storm"); after a quiet
  // spell a token is checked at the end of its turn. Nothing is cached here: the token cache
  // above holds what was checked, and the revocation feed keeps it current.
  const tokenStates = new DataLoader<repo.TokenStateQuery, repo.TokenState>(
    (queries) => repo.checkTokenStates(db, queries),
    { cache: false, batchScheduleFn: spacedSchedule(TOKEN_STATE_GAP_MS), maxBatchSize: 500 },
  );
  const hashSecret = (secret: string) => hmacSha256Hex(hashKey, secret);

  let lastSeq = 0;
  let lastProfileSeq = 0;
  let lastSyncAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let syncing: Promise<void> | undefined;

  /**
   * One tick of the feed (architecture.md#revocation-feed): revocations (D15) and profile
   * changes (D27) written since the last tick. If the feed could not be read for longer than
   * its rows are kept, rows may have been pruned unseen: every cached token is verified again.
   */
  async function syncRevocations(): Promise<void> {
    const now = clock.now();
    const [revocations, profileChanges] = await Promise.all([
      repo.readRevocationsAfter(db, lastSeq, now),
      repo.readProfileChangesAfter(db, lastProfileSeq, now),
    ]);
    if (lastSyncAt !== undefined && now.getTime() - lastSyncAt > FEED_RETENTION_MS / 2) cache.forgetVerified();
    lastSyncAt = now.getTime();
    for (const row of revocations) {
      cache.revoke({ jti: row.jti, keyId: row.key_id });
      lastSeq = Math.max(lastSeq, row.seq);
    }
    for (const row of profileChanges) {
      cache.setProfile(row.key_id, row.profile);
      lastProfileSeq = Math.max(lastProfileSeq, row.seq);
    }
  }

  async function issueToken(merchantId: string, keyId: string, profile: IntegrationProfile): Promise<TokenResponse> {
    const token = createSigner({
      key: jwtSecret,
      algorithm: 'HS256',
      kid: keyId,
      iss: ISSUER,
      aud: AUDIENCE,
      sub: merchantId,
      jti: newId(),
      expiresIn: TOKEN_LIFETIME_SEC * 1000,
      clockTimestamp: clock.now().getTime(),
    })({ kid: keyId });
    return {
      access_token: token,
      token_type: profile === 'opendelivery' ? 'bearer' : 'Bearer',
      expires_in: TOKEN_LIFETIME_SEC,
    };
  }

  /** Signature, algorithm, issuer, audience and expiry; no database. Throws 401. */
  async function verifySignature(token: string): Promise<Principal> {
    let payload: Record<string, unknown>;
    try {
      payload = verifyJwt(token);
    } catch {
      throw unauthorized('Invalid access token');
    }
    const { sub, kid: keyId, jti, exp, nbf } = payload;
    if (!isUuid(sub) || !isUuid(keyId) || !isUuid(jti) || typeof exp !== 'number') {
      throw unauthorized('Invalid access token');
    }
    const nowSec = clock.now().getTime() / 1000;
    if (exp <= nowSec) throw unauthorized('Access token expired');
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSec)) throw unauthorized('Invalid access token');
    // The profile is the key's, read with its state on a cache miss (verifyAccessToken).
    return { merchantId: sub, keyId, jti, expiresAt: exp * 1000, profile: DEFAULT_PROFILE };
  }

  /** client_id = merchant id, client_secret identifies the key (spec 4.1, D14). */
  async function authenticateClient(
    clientId: string,
    clientSecret: string,
  ): Promise<{ merchantId: string; keyId: string; profile: IntegrationProfile }> {
    const keyId = keyIdFromSecret(clientSecret);
    const key = keyId ? await repo.findActiveKey(db, keyId) : undefined;
    // Hash even when no key was found so that timing does not tell which part was wrong.
    const candidate = hashSecret(clientSecret);
    const ok = key !== undefined && safeEqual(candidate, key.secret_hash) && key.merchant_id === clientId;
    if (!ok || !key) throw invalidClientCredentials();
    return { merchantId: key.merchant_id, keyId: key.id, profile: key.profile };
  }

  async function revokePrincipal(principal: Principal): Promise<void> {
    await repo.insertRevocation(db, { jti: principal.jti, expiresAt: new Date(principal.expiresAt) });
    cache.revoke({ jti: principal.jti });
  }

  return {
    hashSecret,
    authenticateClient,
    revokePrincipal,
    sealSecret: (plain: string) => encryptSecret(sealKey, plain),
    openSecret: (sealed: string) => decryptSecret(sealKey, sealed),

    /** POST /admin/v1/merchants/{id}/integrationKeys. The secret is returned only here. */
    async createIntegrationKey(
      merchantId: string,
      name: string | undefined,
      profile: IntegrationProfile = DEFAULT_PROFILE,
    ) {
      const keyId = newId();
      const clientSecret = makeSecret(keyId);
      const createdAt = clock.now();
      const keyName = name?.trim() || `key-${keyId.slice(0, 8)}`;
      await repo.insertIntegrationKey(db, {
        id: keyId,
        merchantId,
        name: keyName,
        secretHash: hashSecret(clientSecret),
        secretEnc: encryptSecret(sealKey, clientSecret),
        createdAt,
        profile,
      });
      // operator-api.md#integration-keys: the answer's fields are fixed; the profile is in every listing.
      return { keyId, clientId: merchantId, clientSecret, name: keyName, createdAt: createdAt.toISOString(), profile };
    },

    /**
     * PATCH …/integrationKeys/{keyId} (D27): the key's next request, on this process, speaks the
     * new profile; other processes learn it from the feed within a second. Events already polled
     * keep the eventId they were shown: acknowledgment accepts either form (D28).
     */
    async setIntegrationKeyProfile(
      merchantId: string,
      keyId: string,
      profile: IntegrationProfile,
    ): Promise<repo.IntegrationKeyRow | undefined> {
      const now = clock.now();
      const updated = await db.transaction(async (tx) => {
        const result = await repo.updateKeyProfile(tx, merchantId, keyId, profile);
        if (result?.changed) {
          await repo.insertProfileChange(tx, {
            keyId,
            profile,
            expiresAt: new Date(now.getTime() + FEED_RETENTION_MS),
          });
        }
        return result?.row;
      });
      if (updated) cache.setProfile(keyId, profile);
      return updated;
    },

    /** PATCH …/integrationKeys/{keyId}: the opt-in types it gets (D42), read at fan-out and poll. */
    setIntegrationKeyExtraEventTypes: (merchantId: string, keyId: string, types: string[]) =>
      repo.updateKeyExtraEventTypes(db, merchantId, keyId, [...new Set(types)].sort()),

    /** Deleting a key stops its tokens on every instance (D15). */
    async deleteIntegrationKey(merchantId: string, keyId: string): Promise<boolean> {
      const now = clock.now();
      const deleted = await db.transaction(async (tx) => {
        const ok = await repo.markKeyDeleted(tx, merchantId, keyId, now);
        if (ok) {
          await repo.insertRevocation(tx, { keyId, expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_SEC * 1000) });
        }
        return ok;
      });
      if (deleted) cache.revoke({ keyId });
      return deleted;
    },

    listIntegrationKeys: (merchantId: string) => repo.listActiveKeys(db, merchantId),
    /** When each key last got a token (POS presence). */
    lastTokenTimes: (keyIds: string[]) => repo.lastTokenTimes(db, keyIds),

    /** Changes when a key is deleted: what signs webhooks may have changed (D10). */
    signingKeysChanged: () => cache.keysRevoked(),

    /** The clear client secret of a key, for signing webhooks (D10). */
    async signingSecret(keyId: string): Promise<string | undefined> {
      const key = await repo.findActiveKey(db, keyId);
      return key ? decryptSecret(sealKey, key.secret_enc) : undefined;
    },

    async issueTokenForClient(clientId: string, clientSecret: string): Promise<TokenResponse> {
      const { merchantId, keyId, profile } = await authenticateClient(clientId, clientSecret);
      const token = await issueToken(merchantId, keyId, profile);
      await repo.touchKey(db, keyId, clock.now());
      return token;
    },

    /** The principal of a token verified before and still valid, without any await (hot path). */
    cachedPrincipal(token: string): Principal | undefined {
      return cache.get(token, epochMs(clock));
    },

    /** Marks when a principal was handed out, for recheckPrincipal (merchantAuth's per-connection memo). */
    principalEpoch: () => cache.epoch,

    /**
     * A principal this service returned before, kept by the caller with principalEpoch() of that
     * moment, checked again without looking its token up: what cachedPrincipal would answer, or
     * undefined when the token must be checked the usual way.
     */
    recheckPrincipal(principal: Principal, epochSeen: number): Principal | undefined {
      return cache.recheck(principal, epochSeen, epochMs(clock));
    },

    /** Bearer check for every /v1 merchant route. Throws 401 with a title saying why. */
    async verifyAccessToken(token: string): Promise<Principal> {
      const cached = cache.get(token, epochMs(clock));
      if (cached) return cached;
      const principal = await verifySignature(token);
      const revoked = cache.revocationOf(principal);
      if (revoked === 'key') throw unauthorized('Integration key no longer exists');
      if (revoked === 'token') throw unauthorized('Access token revoked');
      const state = await tokenStates.load({
        keyId: principal.keyId,
        merchantId: principal.merchantId,
        jti: principal.jti,
      });
      if (!state.keyActive) throw unauthorized('Integration key no longer exists');
      if (state.revoked) {
        cache.revoke({ jti: principal.jti });
        throw unauthorized('Access token revoked');
      }
      if (state.profile) principal.profile = state.profile;
      return cache.set(token, principal);
    },

    /** RFC 7009: revoke a token issued to this client; unknown or foreign tokens are ignored. */
    async revokeTokenOfClient(token: string, client: { merchantId: string; keyId: string }): Promise<void> {
      let principal: Principal;
      try {
        principal = await verifySignature(token);
      } catch {
        return;
      }
      if (principal.keyId !== client.keyId || principal.merchantId !== client.merchantId) return;
      await revokePrincipal(principal);
    },

    /** POST /oauth/refresh: a new token for the same key; the presented one is revoked (D15). */
    async refresh(principal: Principal): Promise<TokenResponse> {
      const token = await issueToken(principal.merchantId, principal.keyId, principal.profile);
      await revokePrincipal(principal);
      return token;
    },

    /** Starts tailing revocations; returns once the current ones are loaded. */
    async start(): Promise<void> {
      await syncRevocations();
      const tick = () => {
        syncing = syncRevocations()
          .catch(() => {
            // Database unreachable: keep serving cached tokens and try again next tick.
          })
          .finally(() => {
            syncing = undefined;
            if (timer) timer = setTimeout(tick, REVOCATION_POLL_MS).unref();
          });
      };
      timer = setTimeout(tick, REVOCATION_POLL_MS).unref();
    },

    async stop(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await syncing;
    },

    /** Housekeeping: rows past every token's expiry are useless. */
    pruneRevocations: () => repo.deleteExpiredRevocations(db, clock.now()),
    syncRevocations,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
