// D20: the platform fetches the catalog from the POS. Open Delivery's `GET /v1/merchant` lives
// on the merchant's registered base URL and is authenticated with the `X-API-KEY` header.
// The address is the merchant's choice, so the connection goes through the outbound guard
// (D12, D31): in production only public https addresses are reached, checked at connect time
// before any byte is sent, and the reason a merchant reads reveals nothing about the target's
// network (the operator's `detail` keeps the exact error).
// An unchanged menu is not processed again: the last applied answer's ETag goes out as
// `If-None-Match` (a 304 ends the pull), and the answer's SHA-256 is compared with the last
// applied one (catalog-sync-process.ts decides; this file only fetches).
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { describeOutboundError, loadUndici, publicOutboundError } from '../../lib/net/outbound-agent.js';

export interface PullLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_PULL_LIMITS: PullLimits = { timeoutMs: 15_000, maxBytes: 32 * 1024 * 1024 };

export interface PullTransport {
  dispatcher: Dispatcher;
  /** Production (D12, D25): https only, and generic failure texts for the merchant. */
  production: boolean;
}

export type PullResult =
  | {
      body: unknown;
      /** The answer as received (stored as the sync's payload without re-encoding). */
      raw: string;
      sha256: string;
      etag: string | null;
    }
  | { notModified: true }
  | { reason: string; detail: string };

/** `{baseURL}/v1/merchant` (Open Delivery), unless the registered URL already names the endpoint. */
export function pullUrl(baseURL: string): string {
  const trimmed = baseURL.replace(/\/+$/, '');
  return /\/merchant$/i.test(new URL(trimmed).pathname) ? trimmed : `${trimmed}/v1/merchant`;
}

const failed = (reason: string, detail = reason): PullResult => ({ reason: `Pull failed: ${reason}`, detail });

/** The POS answer parsed as JSON, or a reason a person can read (recorded as a FAIL sync). */
export async function fetchPosCatalog(
  target: { baseURL: string; apiKey: string },
  transport: PullTransport,
  limits: PullLimits = DEFAULT_PULL_LIMITS,
  /** The ETag of the last applied answer, sent as If-None-Match. */
  ifNoneMatch: string | null = null,
): Promise<PullResult> {
  let url: string;
  try {
    url = pullUrl(target.baseURL);
  } catch {
    return failed('getMerchantURL.baseURL is not a valid URL');
  }
  if (transport.production && !url.startsWith('https://')) {
    return failed('getMerchantURL.baseURL must use https in production');
  }
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const { request } = await loadUndici();
    const response = await request(url, {
      method: 'GET',
      headers: {
        accept: 'application/json',
        'x-api-key': target.apiKey,
        ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
      },
      dispatcher: transport.dispatcher,
      signal,
    });
    if (response.statusCode === 304 && ifNoneMatch) {
      await response.body.dump().catch(() => {});
      return { notModified: true };
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump().catch(() => {});
      return failed(`GET ${url} answered HTTP ${response.statusCode}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      response.body.destroy();
      return failed(`the POS answer is larger than ${limits.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBytes) {
        response.body.destroy();
        return failed(`the POS answer is larger than ${limits.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    const raw = bytes.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (error) {
      // The parser's words say where (position, token): what the POS developer needs to fix it.
      return failed(`the POS answer from GET ${url} is not valid JSON (${(error as Error).message})`);
    }
    const etag = response.headers.etag;
    return {
      body,
      raw,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      etag: typeof etag === 'string' && etag.length <= 512 ? etag : null,
    };
  } catch (error) {
    // A timeout says nothing the caller could not measure itself.
    if (signal.aborted) return failed(`GET ${url} took longer than ${limits.timeoutMs} ms`);
    const detail = describeOutboundError(error, limits.timeoutMs, signal);
    const shown = transport.production ? publicOutboundError(error, limits.timeoutMs, signal) : detail;
    return failed(`GET ${url} could not be completed (${shown})`, `GET ${url}: ${detail}`);
  }
}
