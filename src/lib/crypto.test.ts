import { describe, expect, it } from 'vitest';
import { decryptSecret, deriveKey, encryptSecret, hmacSha256Hex, safeEqual } from './crypto.js';
import { isUuidV4, uuidV5 } from './ids.js';

describe('crypto', () => {
  const key = deriveKey('x'.repeat(40), 'secrets');

  it('round-trips a secret through AES-256-GCM with a fresh IV each time', () => {
    const a = encryptSecret(key, 'hunter2');
    const b = encryptSecret(key, 'hunter2');
    expect(a).not.toBe(b);
    expect(decryptSecret(key, a)).toBe('hunter2');
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = encryptSecret(key, 'hunter2');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('hunter3').toString('base64url');
    expect(() => decryptSecret(key, parts.join('.'))).toThrow();
  });

  it('derives different keys per purpose', () => {
    expect(deriveKey('x'.repeat(40), 'a').equals(deriveKey('x'.repeat(40), 'b'))).toBe(false);
  });

  it('computes lowercase hex HMAC-SHA256 (RFC 4231 case 2)', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('compares in constant time, including different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('ids', () => {
  it('computes RFC 9562 UUIDv5 (DNS namespace example)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });
  it('recognises v4 uuids only', () => {
    expect(isUuidV4('0b6f4c1e-7d2a-4f3b-9c8d-1e2f3a4b5c6d')).toBe(true);
    expect(isUuidV4('2ed6657d-e927-568b-95e1-2665a8aea6a2')).toBe(false);
  });
});
