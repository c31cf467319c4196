// One HTTP POST of a webhook (D11): success = a 2xx within the timeout; a redirect is a failure
// and is never followed; the answer is kept as a snippet of at most 1 KB. In production every
// connection goes through the SSRF guard (D12).
import type { Agent } from 'undici';
import type { CleaverEnv } from '../../config.js';
import type { LookupFn } from '../../lib/net/address-guard.js';
import { createOutboundAgent, describeOutboundError, loadUndici } from '../../lib/net/outbound-agent.js';

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
  // Made by the first send (undici is loaded then: src/lib/net/outbound-agent.ts).
  let transport: Promise<{ request: typeof import('undici').request; agent: Agent }> | undefined;
  const transportOf = () => {
    transport ??= Promise.all([
      loadUndici(),
      createOutboundAgent({
        guarded: production,
        timeoutMs,
        lookup: options.lookup,
        connectionsPerOrigin: options.connectionsPerOrigin,
      }),
    ]).then(([undici, agent]) => ({ request: undici.request, agent }));
    return transport;
  };

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
      const { request, agent } = await transportOf();
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
      return failure(null, describeOutboundError(error, timeoutMs, signal), elapsed());
    }
  }

  return {
    send,
    timeoutMs,
    close: async () => {
      if (transport) await (await transport).agent.close();
    },
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

export type WebhookSender = ReturnType<typeof createWebhookSender>;
