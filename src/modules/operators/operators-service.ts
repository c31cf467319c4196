// Operator accounts and their personal API tokens: create, change, disable (which revokes their
// sessions and tokens at once), and the check of a bearer token on every operator API request.
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { decryptSecret, deriveKey, encryptSecret, hmacSha256Hex, randomToken, safeEqual } from '../../lib/crypto.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { ActorKind } from './audit-repository.js';
import * as repo from './operators-repository.js';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './password.js';
import { lowerRole, mayGrant, type Role } from './roles.js';
import { newTotpSecret, totpStep, totpUri } from './totp.js';

/** Who is calling: the bootstrap token, an operator (console session) or an operator's token. */
export interface Actor {
  kind: Exclude<ActorKind, 'anonymous'>;
  role: Role;
  /** The operator's email, or `bootstrap-token`. */
  actor: string;
  operatorId: string | null;
  tokenId: string | null;
}

export const BOOTSTRAP_ACTOR: Actor = {
  kind: 'bootstrap',
  role: 'admin',
  actor: 'bootstrap-token',
  operatorId: null,
  tokenId: null,
};

export const TOKEN_DEFAULT_DAYS = 90;
export const TOKEN_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

export interface OperatorsDeps {
  db: Db;
  clock: Clock;
  config: { secretKey: string; adminToken: string };
}

const operatorNotFound = () => notFound('Operator not found');
const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

/** `cop_<token id hex>_<random>`: the id makes the lookup one indexed read (as D14 does for keys). */
function tokenIdOf(token: string): string | undefined {
  const h = /^cop_([0-9a-f]{32})_[A-Za-z0-9_-]{43}$/.exec(token)?.[1];
  if (!h) return undefined;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function createOperatorsService(deps: OperatorsDeps) {
  const { db, clock } = deps;
  const tokenKey = deriveKey(deps.config.secretKey, 'operator-token-hash');
  const sealKey = deriveKey(deps.config.secretKey, 'operator-totp');
  const hashToken = (token: string) => hmacSha256Hex(tokenKey, token);

  async function requireOperator(id: string): Promise<repo.OperatorRow> {
    const row = await repo.findOperator(db, id);
    if (!row) throw operatorNotFound();
    return row;
  }

  /** Sessions and tokens of one operator stop working at once (both in one transaction). */
  async function revokeAccess(id: string): Promise<{ sessions: number; tokens: number }> {
    await requireOperator(id);
    const at = clock.now();
    return db.transaction(async (tx) => ({
      sessions: await repo.revokeOperatorSessions(tx, id, at),
      tokens: await repo.revokeAllTokens(tx, id, at),
    }));
  }

  function tokenExpiry(expiresAt: string | undefined): Date {
    const now = clock.now().getTime();
    if (expiresAt === undefined) return new Date(now + TOKEN_DEFAULT_DAYS * DAY_MS);
    const at = new Date(expiresAt);
    if (Number.isNaN(at.getTime())) throw badRequest('expiresAt must be a date-time');
    if (at.getTime() <= now) throw badRequest('expiresAt must be in the future');
    if (at.getTime() > now + TOKEN_MAX_DAYS * DAY_MS) {
      throw badRequest(`expiresAt must be at most ${TOKEN_MAX_DAYS} days ahead`);
    }
    return at;
  }

  async function createToken(
    operatorId: string,
    input: { name?: string; role?: Role; expiresAt?: string },
    /** The role of whoever asks: a token is never above it either. */
    callerRole: Role = 'admin',
  ) {
    const operator = await requireOperator(operatorId);
    if (operator.disabled_at) throw conflict('Operator is disabled');
    const role = input.role ?? lowerRole(operator.role, callerRole) ?? operator.role;
    if (!mayGrant(operator.role, role)) {
      throw badRequest(`role must not be higher than the operator's role (${operator.role})`);
    }
    if (!mayGrant(callerRole, role)) throw badRequest(`role must not be higher than your own role (${callerRole})`);
    const expiresAt = tokenExpiry(input.expiresAt);
    const id = newId();
    const token = `cop_${id.replace(/-/g, '')}_${randomToken(32)}`;
    const name = input.name?.trim() || `token ${clock.now().toISOString().slice(0, 10)}`;
    const at = clock.now();
    await repo.insertToken(db, { id, operatorId, name, role, tokenHash: hashToken(token), at, expiresAt });
    return { id, token, role, expiresAt: expiresAt.toISOString(), name, createdAt: at.toISOString() };
  }

  /** The actor behind an operator API bearer token, or undefined when it is no valid token. */
  async function authenticateBearer(token: string): Promise<Actor | undefined> {
    if (safeEqual(token, deps.config.adminToken)) return BOOTSTRAP_ACTOR;
    const id = tokenIdOf(token);
    if (!id) return undefined;
    const row = await repo.findTokenWithOperator(db, id);
    // Hash even when nothing was found, so that timing does not tell which part was wrong.
    const candidate = hashToken(token);
    if (!row || !safeEqual(candidate, row.token_hash)) return undefined;
    const now = clock.now();
    if (row.revoked_at || row.expires_at <= now || row.disabled_at) return undefined;
    // D36: a platform token of an operator who is now a viewer (or the reverse) acts as nothing.
    const role = lowerRole(row.role, row.operator_role);
    if (!role) return undefined;
    await repo.touchToken(db, row.id, now);
    return {
      kind: 'token',
      role,
      actor: row.email,
      operatorId: row.operator_id,
      tokenId: row.id,
    };
  }

  function pendingTotpSecret(sealed: string | null): string {
    if (!sealed) throw conflict('No one-time code enrolment in progress');
    return decryptSecret(sealKey, sealed);
  }

  return {
    requireOperator,
    revokeAccess,
    createToken,
    authenticateBearer,

    async createOperator(input: { email: string; name: string; role: Role; password?: string }) {
      const email = input.email.trim();
      if (!EMAIL_RE.test(email)) throw badRequest('email must be an email address');
      const name = input.name.trim();
      if (!name) throw badRequest('name must not be empty');
      if (input.password !== undefined) checkPasswordPolicy(input.password);
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
      const id = newId();
      const inserted = await repo.insertOperator(db, {
        id,
        email,
        name,
        role: input.role,
        passwordHash,
        at: clock.now(),
      });
      if (!inserted) throw conflict('An operator with this email already exists');
      return requireOperator(id);
    },

    listOperators: (page: { limit: number; after?: { createdAt: Date; id: string } }) => repo.listOperators(db, page),

    findByEmail: (email: string) => repo.findOperatorByEmail(db, email),

    /** Role and enabled state; disabling revokes every session and token in the same transaction. */
    async updateOperator(id: string, change: { role?: Role; disabled?: boolean }) {
      const at = clock.now();
      const row = await db.transaction(async (tx) => {
        const updated = await repo.updateOperator(tx, id, change, at);
        if (updated && change.disabled === true) {
          await repo.revokeOperatorSessions(tx, id, at);
          await repo.revokeAllTokens(tx, id, at);
        }
        return updated;
      });
      if (!row) throw operatorNotFound();
      return row;
    },

    /** An admin sets (or resets) a password: the operator's console sessions end. */
    async setPassword(id: string, password: string) {
      checkPasswordPolicy(password);
      const hash = await hashPassword(password);
      const at = clock.now();
      await db.transaction(async (tx) => {
        if (!(await repo.setPasswordHash(tx, id, hash, at))) throw operatorNotFound();
        await repo.revokeOperatorSessions(tx, id, at);
      });
    },

    async changeOwnPassword(id: string, current: string, next: string) {
      const row = await requireOperator(id);
      if (!(await verifyPassword(row.password_hash, current))) throw badRequest('currentPassword is not correct');
      checkPasswordPolicy(next, 'newPassword');
      if (!(await repo.setPasswordHash(db, id, await hashPassword(next), clock.now()))) throw operatorNotFound();
    },

    async resetTotp(id: string) {
      if (!(await repo.clearTotp(db, id, clock.now()))) throw operatorNotFound();
    },

    /** Step 1 of enrolment: a new secret, kept pending until a first code confirms it. */
    async startTotp(id: string): Promise<{ secret: string; uri: string }> {
      const row = await requireOperator(id);
      if (row.totp_secret_enc) throw conflict('One-time codes are already enabled: disable them first');
      const secret = newTotpSecret();
      await repo.setTotpPending(db, id, encryptSecret(sealKey, secret), clock.now());
      return { secret, uri: totpUri(secret, row.email) };
    },

    async confirmTotp(id: string, code: string): Promise<void> {
      const row = await requireOperator(id);
      const secret = pendingTotpSecret(row.totp_pending_enc);
      const step = totpStep(secret, code, clock.now().getTime());
      if (step === undefined) throw badRequest('code is not valid: check the device clock and try the next code');
      if (!(await repo.enableTotp(db, id, row.totp_pending_enc as string, step, clock.now()))) {
        throw conflict('The enrolment changed meanwhile: start again');
      }
    },

    async disableTotp(id: string, password: string): Promise<void> {
      const row = await requireOperator(id);
      if (!(await verifyPassword(row.password_hash, password))) throw badRequest('password is not correct');
      await repo.clearTotp(db, id, clock.now());
    },

    /** True when `code` is a fresh valid code of the operator's active secret (used once). */
    async checkTotp(row: repo.OperatorRow, code: string | undefined): Promise<boolean> {
      if (!row.totp_secret_enc || !code) return false;
      const step = totpStep(decryptSecret(sealKey, row.totp_secret_enc), code, clock.now().getTime());
      return step !== undefined && (await repo.useTotpStep(db, row.id, step));
    },

    listTokens: async (operatorId: string) => {
      await requireOperator(operatorId);
      return repo.listTokens(db, operatorId);
    },

    async revokeToken(operatorId: string, tokenId: string): Promise<void> {
      if (!(await repo.revokeToken(db, operatorId, tokenId, clock.now()))) throw notFound('Token not found');
    },

    activeSessions: (operatorId: string) => repo.countActiveSessions(db, operatorId, clock.now()),
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;

/** The operator behind an actor, for self-service routes; the bootstrap token has none. */
export function selfOf(actor: Actor): string {
  if (!actor.operatorId) {
    throw new AppError(409, 'The bootstrap token is not an operator account: create an operator and use its token');
  }
  return actor.operatorId;
}
