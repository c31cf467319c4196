import { describe, expect, it } from 'vitest';
import { totpCode, totpStep } from './totp.js';

// RFC 6238 appendix B: the seed is the ASCII string "12345678901234567890" (SHA-1), 20 bytes,
// extended to 32 and 64 bytes for SHA-256 and SHA-512; 8-digit codes at fixed times.
const b32 = (ascii: string) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of Buffer.from(ascii, 'ascii')) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet[Number.parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
};
const SHA1 = b32('12345678901234567890');
const SHA256 = b32('12345678901234567890123456789012');
const SHA512 = b32('1234567890123456789012345678901234567890123456789012345678901234');

describe('RFC 6238 test vectors', () => {
  it.each([
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ])('T = %i s', (seconds, sha1, sha256, sha512) => {
    const at = seconds * 1000;
    expect(totpCode(SHA1, at, { digits: 8, algorithm: 'SHA1' })).toBe(sha1);
    expect(totpCode(SHA256, at, { digits: 8, algorithm: 'SHA256' })).toBe(sha256);
    expect(totpCode(SHA512, at, { digits: 8, algorithm: 'SHA512' })).toBe(sha512);
  });
});

describe('totpStep', () => {
  const now = 1_800_000_000_000;
  const step = Math.floor(now / 30_000);

  it('accepts the current code and one step of drift either way, with the step it belongs to', () => {
    expect(totpStep(SHA1, totpCode(SHA1, now), now)).toBe(step);
    expect(totpStep(SHA1, totpCode(SHA1, now - 30_000), now)).toBe(step - 1);
    expect(totpStep(SHA1, totpCode(SHA1, now + 30_000), now)).toBe(step + 1);
    expect(totpStep(SHA1, ` ${totpCode(SHA1, now).slice(0, 3)} ${totpCode(SHA1, now).slice(3)} `, now)).toBe(step);
  });

  it('refuses codes two steps away, wrong codes and anything but six digits', () => {
    expect(totpStep(SHA1, totpCode(SHA1, now - 60_000), now)).toBeUndefined();
    expect(totpStep(SHA1, totpCode(SHA1, now + 60_000), now)).toBeUndefined();
    const good = totpCode(SHA1, now);
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
    expect(totpStep(SHA1, wrong, now)).toBeUndefined();
    for (const bad of ['', '12345', '1234567', 'abcdef', '12345a']) expect(totpStep(SHA1, bad, now)).toBeUndefined();
  });
});
