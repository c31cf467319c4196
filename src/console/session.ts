// Console session cookies. The session itself is a row in operator_sessions (server-side, so it
// can be revoked: logout, disabling the operator, "revoke access"; idle and absolute deadlines,
// modules/operators/sessions-service.ts). The cookie names it and is signed as well, so a forged
// or tampered cookie is refused before any database read. The signing key is derived from
// CLEAVER_SECRET_KEY *and* the admin token: rotating either one ends every console session.
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { deriveKey, hmacSha256Base64, safeEqual } from '../lib/crypto.js';

export const SESSION_COOKIE = 'cleaver_console';
export const LOGIN_COOKIE = 'cleaver_console_login';
const LOGIN_TTL_SEC = 3600;

export interface Session {
  id: string;
  expiresAt: number;
  csrfToken: string;
}

export interface Sessions {
  /** The cookie value naming a session opened server-side (id and absolute expiry in seconds). */
  cookieFor(id: string, expiresAt: Date): string;
  /** The session a cookie names, when signed by us and not past its absolute expiry. */
  verify(cookie: string | undefined, nowMs: number): Session | undefined;
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
  const csrfOf = (sessionId: string) => sign(`csrf:${sessionId}`);

  return {
    cookieFor(id, expiresAt) {
      const payload = `${id}.${Math.floor(expiresAt.getTime() / 1000)}`;
      return `${payload}.${sign(`session:${payload}`)}`;
    },

    verify(cookie, nowMs) {
      if (!cookie) return undefined;
      const [id, exp, signature, ...extra] = cookie.split('.');
      if (id === undefined || exp === undefined || signature === undefined || extra.length > 0) return undefined;
      if (!/^[A-Za-z0-9_-]{24}$/.test(id) || !/^\d{1,12}$/.test(exp)) return undefined;
      if (!safeEqual(signature, sign(`session:${id}.${exp}`))) return undefined;
      const expiresAt = Number(exp);
      if (expiresAt * 1000 <= nowMs) return undefined;
      return { id, expiresAt, csrfToken: csrfOf(id) };
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
