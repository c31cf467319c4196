// Every outbound connection to an address a merchant gave (webhooks, the catalog pull) goes
// through one of these agents (D12, D31). In production the address check happens inside the
// resolution used to open the socket, so what was checked is what is connected to: a name that
// resolves to a public address at registration and to a private one later (DNS rebinding) is
// still refused, and nothing is sent before the check passes. Redirects are never followed
// (undici's request() follows none unless told to).
import { isIP } from 'node:net';
import type { Agent, buildConnector } from 'undici';
import { assertPublicAddress, BlockedAddressError, guardedLookup, type LookupFn } from './address-guard.js';

export interface OutboundAgentOptions {
  /** Production refuses non-public addresses and plain http (D12); sandbox allows loopback. */
  guarded: boolean;
  /** Connect, headers and body timeouts. */
  timeoutMs: number;
  /** DNS resolution (tests give a fake resolver to prove the guard); the system's otherwise. */
  lookup?: LookupFn;
  /** Connections kept per origin. */
  connectionsPerOrigin?: number;
  keepAliveTimeoutMs?: number;
}

/**
 * undici, loaded by the first outbound request of the process rather than at start: an API
 * process never sends one, and the client is a megabyte of code kept in memory (RSS after
 * start, docs/benchmarks.md). The module loader keeps it once loaded. Its errors are told apart
 * by their `code`, not by class, so nothing else here needs it loaded.
 */
export const loadUndici = () => import('undici');

export async function createOutboundAgent(options: OutboundAgentOptions): Promise<Agent> {
  const { guarded } = options;
  const { Agent, buildConnector } = await loadUndici();
  const baseConnect = buildConnector({
    timeout: Math.min(options.timeoutMs, 10_000),
    ...(guarded ? { lookup: guardedLookup(options.lookup) } : options.lookup ? { lookup: options.lookup } : {}),
  } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (opts, callback) => {
    if (guarded) {
      if (opts.protocol !== 'https:') {
        callback(new BlockedAddressError(`Refused ${opts.protocol} in production: https only (D12)`), null);
        return;
      }
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
    }
    baseConnect(opts, callback);
  };
  return new Agent({
    connect,
    connections: options.connectionsPerOrigin ?? 32,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
  });
}

const codeOf = (error: unknown) => (error as { code?: unknown } | undefined)?.code;
/** undici's headers and body timeouts (UND_ERR_HEADERS_TIMEOUT, UND_ERR_BODY_TIMEOUT). */
const isUndiciTimeout = (error: unknown) =>
  codeOf(error) === 'UND_ERR_HEADERS_TIMEOUT' || codeOf(error) === 'UND_ERR_BODY_TIMEOUT';

/** True when the connection was refused by the address guard (D12). */
export function isBlockedAddress(error: unknown): boolean {
  const e = error as { cause?: unknown } | undefined;
  return error instanceof BlockedAddressError || e?.cause instanceof BlockedAddressError;
}

/**
 * What went wrong with an outbound request, in words for an operator: the exact code and
 * message. Not for a merchant's eyes (see `publicOutboundError`): "refused" versus "reset" on a
 * target the merchant chose would make the platform a port scanner.
 */
export function describeOutboundError(error: unknown, timeoutMs: number, signal?: AbortSignal): string {
  if (signal?.aborted || isUndiciTimeout(error)) {
    return `Timed out after ${timeoutMs} ms`;
  }
  const e = error as { code?: string; message?: string; cause?: unknown };
  const cause = e.cause as { code?: string; message?: string } | undefined;
  if (error instanceof BlockedAddressError) return error.message;
  if (cause instanceof BlockedAddressError) return cause.message;
  if (codeOf(error) === 'UND_ERR_CONNECT_TIMEOUT') return `Connect timeout: ${e.message}`;
  const code = e.code ?? cause?.code;
  const message = e.message ?? String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * The same failure in words that reveal nothing about the target's network: one text for every
 * connection failure, one for a refused address, one for a timeout (which the caller can time
 * anyway).
 */
export function publicOutboundError(error: unknown, timeoutMs: number, signal?: AbortSignal): string {
  if (signal?.aborted || isUndiciTimeout(error)) {
    return `no answer within ${timeoutMs} ms`;
  }
  if (isBlockedAddress(error)) return 'the address is not allowed (only public https addresses are reached)';
  return 'the connection could not be completed';
}
