// Signs finished homologation reports (operator-api.md#homologation) so a POS developer can show
// one to someone else who checks it: Ed25519 over the canonical JSON of the report without its
// `signature` (object keys sorted, no spaces, UTF-8). The key pair is derived from
// CLEAVER_SECRET_KEY, so every instance signs alike and nothing new is stored; the public key is
// served at GET /v1/homologations/signingKey and printed by the CLI.
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { deriveKey } from '../../lib/crypto.js';

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** JSON with object keys sorted at every level: the bytes that are signed. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const unsigned = (report: Record<string, unknown>) => {
  const { signature: _ignored, ...rest } = report;
  return Buffer.from(canonicalJson(rest), 'utf8');
};

export function createReportSigner(secretKey: string) {
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, deriveKey(secretKey, 'homologation-report-ed25519')]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  return {
    algorithm: 'Ed25519' as const,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    /** base64 signature of the report (its `signature` field, if any, is left out). */
    sign: (report: Record<string, unknown>) => sign(null, unsigned(report), privateKey).toString('base64'),
  };
}

/** What anyone holding the public key (PEM) can run: true when the report is as signed. */
export function verifyReport(report: Record<string, unknown>, publicKeyPem: string): boolean {
  if (typeof report.signature !== 'string') return false;
  return verify(null, unsigned(report), createPublicKey(publicKeyPem), Buffer.from(report.signature, 'base64'));
}

export type ReportSigner = ReturnType<typeof createReportSigner>;
