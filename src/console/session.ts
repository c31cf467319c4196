// Console sessions (issue 8): the operator proves CLEAVER_ADMIN_TOKEN once on the login page and
// gets a signed, expiring session cookie. Nothing is stored server-side except logged-out session
// ids (until they would have expired anyway), so any instance of the process accepts the cookie.
// The signing key is derived from CLEAVER_SECRET_KEY *and* the admin token: rotating either one
// ends every console session.
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { deriveKey, hmacSha256Base64, safeEqual } from '../lib/crypto.js';

export const SESSION_COOKIE = 'cleaver_console';
export const LOGIN_COOKIE = 'cleaver_console_login';
export const SESSION_TTL_SEC = 8 * 3600;
const LOGIN_TTL_SEC = 3600;

export interface Session {
  id: string;
  expiresAt: number;
  csrfToken: string;
}

export interface Sessions {
  /** A new session: the cookie value to set and the session it stands for. */
  create(nowMs: number): { cookie: string; session: Session };
  /** The session of a cookie value, or undefined when missing, forged, expired or logged out. */
  verify(cookie: string | undefined, nowMs: number): Session | undefined;
  /** Logout: the session id stops being accepted by this process at once. */
  revoke(session: Session): void;
  /** CSRF on the login form (no session yet): a random nonce cookie and the token derived from it. */
  createLoginNonce(): { cookie: string; csrfToken: string };
  checkLoginCsrf(cookie: string | undefined, token: string | undefined): boolean;
  /** Set-Cookie attributes for this deployment (Secure when the public URL is https). */
  cookieAttributes(maxAgeSec: number): string;
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

export function createSessions(config: Pick<Config, 'secretKey' | 'adminToken' | 'publicUrl'>): Sessions {
  const adminTokenHash = createHash('sha256').update(config.adminToken).digest('hex');
  const key = deriveKey(config.secretKey, `console-session:${adminTokenHash}`);
  const sign = (data: string) => hmacSha256Base64(key, data).replace(/=+$/, '');
  const secure = config.publicUrl.startsWith('https:');
  // Logged-out session ids until their expiry (bounded by the number of logouts in 8 hours).
  const revoked = new Map<string, number>();

  const csrfOf = (sessionId: string) => sign(`csrf:${sessionId}`);

  function prune(nowMs: number) {
    for (const [id, exp] of revoked) if (exp * 1000 <= nowMs) revoked.delete(id);
  }

  return {
    create(nowMs) {
      const id = b64(randomBytes(18));
      const expiresAt = Math.floor(nowMs / 1000) + SESSION_TTL_SEC;
      const payload = `${id}.${expiresAt}`;
      return { cookie: `${payload}.${sign(`session:${payload}`)}`, session: { id, expiresAt, csrfToken: csrfOf(id) } };
    },

    verify(cookie, nowMs) {
      if (!cookie) return undefined;
      const parts = cookie.split('.');
      if (parts.length !== 3) return undefined;
      const [id, exp, signature] = parts;
      if (!/^[A-Za-z0-9_-]{24}$/.test(id) || !/^\d{1,12}$/.test(exp)) return undefined;
      if (!safeEqual(signature, sign(`session:${id}.${exp}`))) return undefined;
      const expiresAt = Number(exp);
      if (expiresAt * 1000 <= nowMs) return undefined;
      if (revoked.has(id)) return undefined;
      return { id, expiresAt, csrfToken: csrfOf(id) };
    },

    revoke(session) {
      prune(Date.now());
      revoked.set(session.id, session.expiresAt);
    },

    createLoginNonce() {
      const nonce = b64(randomBytes(18));
      return { cookie: nonce, csrfToken: sign(`login:${nonce}`) };
    },

    checkLoginCsrf(cookie, token) {
      if (!cookie || !token || !/^[A-Za-z0-9_-]{24}$/.test(cookie)) return false;
      return safeEqual(token, sign(`login:${cookie}`));
    },

    cookieAttributes(maxAgeSec) {
      return `Path=/console; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSec}${secure ? '; Secure' : ''}`;
    },
  };
}

export const LOGIN_COOKIE_TTL_SEC = LOGIN_TTL_SEC;

/** The value of one cookie from a Cookie header (no dependency: we read two cookies of our own). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
