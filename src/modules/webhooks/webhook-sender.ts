// One HTTP POST of a webhook (D11): success = a 2xx within the timeout; a redirect is a failure
// and is never followed; the answer is kept as a snippet of at most 1 KB. In production every
// connection goes through the SSRF guard (D12).
import { isIP } from 'node:net';
import { Agent, buildConnector, errors, request } from 'undici';
import type { CleaverEnv } from '../../config.js';
import { assertPublicAddress, BlockedAddressError, guardedLookup, type LookupFn } from './ssrf-guard.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const SNIPPET_BYTES = 1024;
const USER_AGENT = 'Cleaver-Webhooks/1.0';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseSnippet: string | null;
  retryAfter?: string | string[];
}

export interface SenderOptions {
  env: CleaverEnv;
  timeoutMs?: number;
  /** DNS resolution (tests give a fake resolver to prove the guard; production uses the system's). */
  lookup?: LookupFn;
  /** Connections kept per receiver origin. */
  connectionsPerOrigin?: number;
}

export function createWebhookSender(options: SenderOptions) {
  const production = options.env === 'production';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const baseConnect = buildConnector({
    timeout: Math.min(timeoutMs, 10_000),
    // D12: the address check happens inside the resolution used to open the socket, so what
    // was checked is what is connected to (no time-of-check/time-of-use gap for rebinding).
    ...(production ? { lookup: guardedLookup(options.lookup) } : options.lookup ? { lookup: options.lookup } : {}),
  } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (opts, callback) => {
    if (production) {
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      // A literal address never goes through lookup: check it here.
      if (isIP(host)) {
        try {
          assertPublicAddress(host, opts.hostname);
        } catch (error) {
          callback(error as Error, null);
          return;
        }
      }
      if (opts.protocol !== 'https:') {
        callback(new BlockedAddressError(`Refused ${opts.protocol} in production: https only (D12)`), null);
        return;
      }
    }
    baseConnect(opts, callback);
  };
  const agent = new Agent({
    connect,
    connections: options.connectionsPerOrigin ?? 32,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 4_000,
  });

  async function send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failure(null, `Invalid webhook URL: ${url}`, 0);
    }
    if (production && target.protocol !== 'https:') {
      return failure(null, `Refused ${target.protocol} URL in production: https only (D12)`, 0);
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      return failure(null, `Unsupported protocol ${target.protocol}`, 0);
    }
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      // undici's request() follows no redirects unless told to: a 3xx comes back as is.
      const res = await request(target, {
        method: 'POST',
        headers: { 'user-agent': USER_AGENT, ...headers },
        body,
        dispatcher: agent,
        signal,
      });
      const snippet = await readSnippet(res.body);
      const code = res.statusCode;
      const durationMs = elapsed();
      if (code >= 200 && code < 300) {
        return { ok: true, statusCode: code, error: null, durationMs, responseSnippet: snippet };
      }
      let error = `HTTP ${code}`;
      if (code >= 300 && code < 400) {
        const location = res.headers.location;
        error = `Redirect (HTTP ${code}${location ? ` to ${String(location).slice(0, 200)}` : ''}) not followed`;
      }
      return {
        ok: false,
        statusCode: code,
        error,
        durationMs,
        responseSnippet: snippet,
        retryAfter: res.headers['retry-after'],
      };
    } catch (error) {
      return failure(null, describeError(error, timeoutMs, signal), elapsed());
    }
  }

  return {
    send,
    timeoutMs,
    close: () => agent.close(),
  };
}

function failure(statusCode: number | null, error: string, durationMs: number): SendResult {
  return { ok: false, statusCode, error, durationMs, responseSnippet: null };
}

/** Reads at most SNIPPET_BYTES of the answer, then drops the rest (a huge body costs nothing). */
async function readSnippet(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= SNIPPET_BYTES) break;
    }
  } catch {
    // The status is what counts; a body cut short is still a snippet.
  } finally {
    body.destroy();
  }
  if (size === 0) return null;
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8');
}

function describeError(error: unknown, timeoutMs: number, signal: AbortSignal): string {
  if (signal.aborted || error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return `Timed out after ${timeoutMs} ms`;
  }
  const e = error as { code?: string; message?: string; cause?: unknown };
  const cause = e.cause as { code?: string; message?: string } | undefined;
  if (error instanceof BlockedAddressError) return error.message;
  if (cause instanceof BlockedAddressError) return cause.message;
  if (error instanceof errors.ConnectTimeoutError) return `Connect timeout: ${e.message}`;
  const code = e.code ?? cause?.code;
  const message = e.message ?? String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
