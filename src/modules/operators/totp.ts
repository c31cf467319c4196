// Time-based one-time codes (RFC 6238) through the otpauth library: SHA-1, 6 digits, 30 s steps,
// which every authenticator app reads from an otpauth:// URI. One step of clock drift either
// way is accepted; a code is accepted once (the caller keeps the last accepted step).
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SEC = 30;
const ISSUER = 'Cleaver';

export interface TotpParams {
  digits?: number;
  algorithm?: 'SHA1' | 'SHA256' | 'SHA512';
}

function totp(secretBase32: string, label = 'operator', params: TotpParams = {}): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: params.algorithm ?? 'SHA1',
    digits: params.digits ?? 6,
    period: TOTP_PERIOD_SEC,
  });
}

/** A new random secret (160 bits, RFC 4226's recommendation), base32 as apps expect it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app imports (typed in or as a QR code). */
export const totpUri = (secretBase32: string, label: string): string => totp(secretBase32, label).toString();

/** The code of the step that contains `atMs` (tests, and RFC 6238 vectors). */
export function totpCode(secretBase32: string, atMs: number, params: TotpParams = {}): string {
  return totp(secretBase32, undefined, params).generate({ timestamp: atMs });
}

/**
 * The time step a code belongs to, when it is valid at `nowMs` (± one step), else undefined.
 * Only digits are compared (the library compares in constant time).
 */
export function totpStep(secretBase32: string, code: string, nowMs: number): number | undefined {
  const clean = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(clean)) return undefined;
  const delta = totp(secretBase32).validate({ token: clean, timestamp: nowMs, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SEC) + delta;
}
