// Console logins and server-side sessions. A session is a row (so logout, disabling an operator
// and "revoke access" end it everywhere at once) with an idle and an absolute deadline; the
// cookie that names it is signed by src/console/session.ts. Logins go through the lockout of
// login-throttle.ts; every attempt is audited by the console.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { safeEqual } from '../../lib/crypto.js';
import { accountKey, ipKey, type LoginThrottle } from './login-throttle.js';
import * as repo from './operators-repository.js';
import { type Actor, BOOTSTRAP_ACTOR, type OperatorsService } from './operators-service.js';
import { verifyPassword } from './password.js';

export interface SessionLimits {
  idleSec: number;
  maxSec: number;
}

export interface OpenSession {
  id: string;
  expiresAt: Date;
}

export type LoginResult =
  | { ok: true; actor: Actor }
  | { ok: false; reason: string; lockedForSec?: number; operatorId?: string; email?: string };

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function createSessionsService(deps: {
  db: Db;
  clock: Clock;
  adminToken: string;
  limits: SessionLimits;
  operators: OperatorsService;
  throttle: LoginThrottle;
}) {
  const { db, clock, limits, operators, throttle } = deps;

  /** Refused while the address or the account is locked; a failure counts against both. */
  async function guarded(ip: string, email: string | undefined, attempt: () => Promise<LoginResult>) {
    const keys = email ? [ipKey(ip), accountKey(email)] : [ipKey(ip)];
    const lockedForSec = await throttle.lockedFor(keys);
    if (lockedForSec > 0) {
      const tried = email && EMAIL_RE.test(email) ? email : undefined;
      return { ok: false as const, reason: 'locked out after repeated failures', lockedForSec, email: tried };
    }
    const result = await attempt();
    if (result.ok) {
      if (email) await throttle.recordSuccess(email);
    } else {
      await throttle.recordFailure(keys);
    }
    return result;
  }

  return {
    /** Email, password and, when enrolled, a one-time code. */
    loginWithPassword(input: { email: string; password: string; code?: string; ip: string }): Promise<LoginResult> {
      const email = input.email.trim();
      return guarded(input.ip, email, async () => {
        const row = email ? await operators.findByEmail(email) : undefined;
        const passwordOk = await verifyPassword(row?.password_hash ?? null, input.password);
        // The address tried is kept when it looks like one (a password typed in the wrong field
        // does not): many unknown accounts from one place is what credential stuffing looks like.
        if (!row) return { ok: false, reason: 'unknown account', email: EMAIL_RE.test(email) ? email : undefined };
        const who = { operatorId: row.id, email: row.email };
        if (!passwordOk) return { ok: false, reason: 'wrong password', ...who };
        if (row.disabled_at) return { ok: false, reason: 'operator disabled', ...who };
        if (row.totp_secret_enc && !(await operators.checkTotp(row, input.code))) {
          return { ok: false, reason: input.code ? 'wrong one-time code' : 'one-time code missing', ...who };
        }
        return {
          ok: true,
          actor: { kind: 'operator', role: row.role, actor: row.email, operatorId: row.id, tokenId: null },
        };
      });
    },

    /** CLEAVER_ADMIN_TOKEN on the login page (bootstrap, and the console tests). */
    loginWithBootstrapToken(token: string, ip: string): Promise<LoginResult> {
      return guarded(ip, undefined, async () =>
        safeEqual(token, deps.adminToken)
          ? { ok: true, actor: BOOTSTRAP_ACTOR }
          : { ok: false, reason: 'invalid operator token' },
      );
    },

    async open(actor: Actor, meta: { ip: string; userAgent: string | null }): Promise<OpenSession> {
      const id = randomBytes(18).toString('base64url');
      const at = clock.now();
      const expiresAt = new Date(Math.floor(at.getTime() / 1000) * 1000 + limits.maxSec * 1000);
      await repo.deleteExpiredSessions(db, at);
      await repo.insertSession(db, { idHash: sha256(id), operatorId: actor.operatorId, at, expiresAt, ...meta });
      return { id, expiresAt };
    },

    /** The actor of a live session, or undefined: revoked, past either deadline, operator disabled. */
    async check(id: string): Promise<Actor | undefined> {
      const idHash = sha256(id);
      const row = await repo.findSession(db, idHash);
      const now = clock.now();
      if (!row || row.revoked_at || row.expires_at <= now) return undefined;
      if (now.getTime() - row.last_seen_at.getTime() >= limits.idleSec * 1000) return undefined;
      let actor: Actor = BOOTSTRAP_ACTOR;
      if (row.operator_id) {
        if (row.disabled_at || !row.role || !row.email) return undefined;
        // The role is read on every request: a change applies to open sessions at once.
        actor = { kind: 'operator', role: row.role, actor: row.email, operatorId: row.operator_id, tokenId: null };
      }
      await repo.touchSession(db, idHash, now);
      return actor;
    },

    close: (id: string) => repo.revokeSession(db, sha256(id), clock.now()),

    /** Ends every session of the operator ("sign out everywhere"), this one included. */
    closeAll: (operatorId: string) => repo.revokeOperatorSessions(db, operatorId, clock.now()),
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
