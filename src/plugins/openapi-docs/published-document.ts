// /openapi.json as served: the document's bytes, its ETag (a hash of them) and its br and gzip
// forms, made once per process, since the document only changes with a deploy. Clients that
// fetch it on every start (client generators, the reference UI) revalidate with If-None-Match and
// get a 304 without a body; the others get it compressed when they accept br or gzip.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface PublishedDocument {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function publishDocument(json: string): PublishedDocument {
  const identity = Buffer.from(json, 'utf8');
  return {
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 32)}"`,
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** If-None-Match against our strong ETag: `*`, or the tag in its list (weak or not, RFC 9110 13.1.2). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** br when accepted, else gzip, else none; an encoding with q=0 is refused (RFC 9110 12.5.3). */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';'); // split always gives a first part
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return undefined;
}
