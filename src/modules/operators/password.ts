// Operator passwords: Argon2id (memory-hard) through @node-rs/argon2, with its defaults
// (19 MiB, 2 passes, 1 lane: the OWASP minimum for Argon2id) written out so that a library
// upgrade cannot weaken them silently. docs/adr/operator-accounts.md says why this library.
import { badRequest } from '../../lib/errors.js';

// The native module is loaded by the first password to hash or check, not at start: most
// processes never see one (RSS after start, docs/benchmarks.md: about 13 MiB for the addon).
async function argon2id() {
  const { Algorithm, hash, verify } = await import('@node-rs/argon2');
  const options = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
  return {
    hash: (password: string) => hash(password, options),
    verify: (stored: string, password: string) => verify(stored, password),
  };
}

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Length only (NIST SP 800-63B): long passphrases beat composition rules. */
export function checkPasswordPolicy(password: string, field = 'password'): void {
  if ([...password].length < PASSWORD_MIN)
    throw badRequest(`${field} must be at least ${PASSWORD_MIN} characters long`);
  if ([...password].length > PASSWORD_MAX) throw badRequest(`${field} must be at most ${PASSWORD_MAX} characters long`);
}

export const hashPassword = async (password: string): Promise<string> => (await argon2id()).hash(password);

// A real hash of a random password: checked when the account does not exist (or has no
// password) so that the answer takes as long as for a real account.
let dummy: Promise<string> | undefined;

/** True when `password` matches `stored`; a missing hash costs the same time and is false. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const { verify } = await argon2id();
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
