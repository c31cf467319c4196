// Operator passwords: Argon2id (memory-hard) through @node-rs/argon2, with its defaults
// (19 MiB, 2 passes, 1 lane: the OWASP minimum for Argon2id) written out so that a library
// upgrade cannot weaken them silently. docs/adr/operator-accounts.md says why this library.
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { badRequest } from '../../lib/errors.js';

const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Length only (NIST SP 800-63B): long passphrases beat composition rules. */
export function checkPasswordPolicy(password: string, field = 'password'): void {
  if ([...password].length < PASSWORD_MIN)
    throw badRequest(`${field} must be at least ${PASSWORD_MIN} characters long`);
  if ([...password].length > PASSWORD_MAX) throw badRequest(`${field} must be at most ${PASSWORD_MAX} characters long`);
}

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

// A real hash of a random password: checked when the account does not exist (or has no
// password) so that the answer takes as long as for a real account.
let dummy: Promise<string> | undefined;

/** True when `password` matches `stored`; a missing hash costs the same time and is false. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword(`no-account-${Math.random()}`);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
