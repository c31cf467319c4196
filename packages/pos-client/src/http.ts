// The HTTP core shared by the merchant, logistics and operator clients: one request, with the
// retries the spec asks for and the ones that are safe.
// - 429 (spec 8) and 503 (spec 4.4, 4.13: "retry with exponential backoff") are retried with
//   exponential backoff and jitter, honouring Retry-After. Both answers mean the server did not
//   act on the request, so resending any method is safe.
// - A connection that could not be made (refused, unknown host, connect timeout) carried no
//   byte of the request: any request is resent.
// - A connection that broke after the request went out and before the answer came (reset,
//   "socket hang up", the per-attempt timeout) leaves it open whether the server acted: only
//   requests the caller marks `idempotent` are resent, and the answer says so (`repeated`), so
//   that the caller can read "already done" refusals of the repeat as success.
import { CleaverApiError, CleaverAuthError, CleaverNetworkError, type NetworkFailureStage } from './errors.js';
import { type Logger, safeLog } from './logger.js';

export interface RetryOptions {
  /** Total attempts including the first (default 5). 1 disables retries. */
  maxAttempts?: number;
  /** First backoff delay (default 500 ms); doubles on every attempt. */
  baseDelayMs?: number;
  /** Ceiling of one backoff delay (default 30 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is raised (default 120 s). */
  maxRetryAfterMs?: number;
}

export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface HttpOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** Replaces the timer wait (tests record the delays instead of waiting them). */
  sleep?: SleepFn;
  /** Called before each retry wait, e.g. to log it. */
  onRetry?: (info: RetryInfo) => void;
  /** Told about every retry (warn) with its cause; silent when absent. */
  logger?: Logger;
  userAgent?: string;
  /** Per-attempt timeout (default 30 s). */
  requestTimeoutMs?: number;
}

export interface RetryInfo {
  method: string;
  path: string;
  attempt: number;
  status: number | 'network';
  delayMs: number;
  /** For network failures: how far the attempt got, and the error code (ECONNRESET…). */
  stage?: NetworkFailureStage;
  code?: string;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  query?: Record<string, string | string[] | undefined>;
  /** A string is sent as is (signed requests need the exact bytes); anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Repeating it changes nothing (by the spec's rules), so it may be resent after a connection
   * broke mid-request, when the server may or may not have acted. Requests that never left
   * (connection refused…) are resent whatever this says.
   */
  idempotent?: boolean;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer has a JSON body; the text otherwise; undefined when empty. */
  body: unknown;
  /**
   * An earlier attempt broke after the request went out: this answer may be to a repeat of a
   * request the server already carried out (e.g. 400 `Order has already same event type` after
   * a confirm that did go through).
   */
  repeated: boolean;
}

export const abortableSleep: SleepFn = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * An AbortSignal that aborts when any of `signals` does (AbortSignal.any needs Node 20.3; this
 * package supports Node 18). `dispose` drops the listeners once the attempt is over.
 */
function anySignal(signals: AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const subscribed: Array<{ source: AbortSignal; onAbort: () => void }> = [];
  const dispose = () => {
    for (const { source, onAbort } of subscribed) source.removeEventListener('abort', onAbort);
  };
  for (const source of signals) {
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    const onAbort = () => {
      controller.abort(source.reason);
      dispose();
    };
    subscribed.push({ source, onAbort });
    source.addEventListener('abort', onAbort, { once: true });
  }
  return { signal: controller.signal, dispose };
}

/** Error codes of a connection that was never made: no byte of the request reached the server. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Every `code` along the cause chain (fetch wraps the socket error; happy eyeballs aggregates). */
export function errorCodes(error: unknown, depth = 0): string[] {
  if (!(error instanceof Error) || depth > 5) return [];
  const own = (error as Error & { code?: unknown }).code;
  const codes = typeof own === 'string' ? [own] : [];
  const nested = error instanceof AggregateError ? error.errors : [];
  return [
    ...codes,
    ...errorCodes((error as Error & { cause?: unknown }).cause, depth + 1),
    ...nested.flatMap((e) => errorCodes(e, depth + 1)),
  ];
}

/** How far a failed fetch() got: 'connect' when no connection was ever made. */
export function failureStage(error: unknown): Exclude<NetworkFailureStage, 'response'> {
  const codes = errorCodes(error);
  return codes.length > 0 && codes.every((c) => NOT_CONNECTED_CODES.has(c)) ? 'connect' : 'request';
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** "Equal jitter": half the exponential delay fixed, half random, so clients spread out but still back off. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random = Math.random): number {
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

function errorTitle(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as { title?: unknown; message?: unknown; error?: unknown };
    if (typeof b.title === 'string') return b.title;
    if (typeof b.message === 'string') return b.message;
    if (typeof b.error === 'string') return b.error;
  }
  if (typeof body === 'string' && body.length > 0 && body.length < 200) return body;
  return `HTTP ${status}`;
}

export function toApiError(method: string, path: string, response: HttpResponse): CleaverApiError {
  const title = errorTitle(response.body, response.status);
  return response.status === 401 || response.status === 403
    ? new CleaverAuthError(response.status, title, method, path, response.body)
    : new CleaverApiError(response.status, title, method, path, response.body);
}

/** A failed attempt: how far it got (see NetworkFailureStage) and what fetch threw. */
class AttemptFailure extends Error {
  constructor(
    readonly stage: NetworkFailureStage,
    override readonly cause: unknown,
  ) {
    super(stage);
  }
}

export interface Http {
  /** Sends with retries on 429/503; returns whatever status came last (never throws on status). */
  exchange(request: HttpRequest): Promise<HttpResponse>;
  /** exchange(), then throws CleaverApiError unless the status is 2xx. */
  send(request: HttpRequest): Promise<HttpResponse>;
  readonly baseUrl: string;
}

export function createHttp(options: HttpOptions): Http {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? abortableSleep;
  const maxAttempts = Math.max(1, options.retry?.maxAttempts ?? 5);
  const baseDelayMs = options.retry?.baseDelayMs ?? 500;
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  const maxRetryAfterMs = options.retry?.maxRetryAfterMs ?? 120_000;
  const timeoutMs = options.requestTimeoutMs ?? 30_000;

  function retrying(info: RetryInfo): void {
    options.onRetry?.(info);
    safeLog(options.logger, 'warn', { ...info }, `retrying ${info.method} ${info.path} in ${info.delayMs} ms`);
  }

  function urlOf(request: HttpRequest): string {
    const url = new URL(baseUrl + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, v);
    }
    return url.toString();
  }

  /** One attempt; a network failure comes out as AttemptFailure saying how far it got. */
  async function attempt(request: HttpRequest, url: string, payload: string | undefined): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    if (options.userAgent) headers['user-agent'] = options.userAgent;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = anySignal(request.signal ? [request.signal, timeout] : [timeout]);
    try {
      let response: Response;
      try {
        response = await doFetch(url, { method: request.method, headers, body: payload, signal: combined.signal });
      } catch (error) {
        throw new AttemptFailure(failureStage(error), error);
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        // The status line came: the server did receive the request.
        throw new AttemptFailure('response', error);
      }
      let body: unknown;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      return { status: response.status, headers: response.headers, body, repeated: false };
    } finally {
      combined.dispose();
    }
  }

  async function exchange(request: HttpRequest): Promise<HttpResponse> {
    const url = urlOf(request);
    // Serialised once: a resend carries exactly the same bytes (and the same signature, 5.2).
    const payload =
      request.body === undefined
        ? undefined
        : typeof request.body === 'string'
          ? request.body
          : JSON.stringify(request.body);
    let repeated = false;
    for (let n = 1; ; n++) {
      let response: HttpResponse;
      try {
        response = await attempt(request, url, payload);
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason ?? error;
        const failure = error instanceof AttemptFailure ? error : new AttemptFailure('request', error);
        // Resend only what cannot do harm: a request that never left, or one that is idempotent.
        const safe = failure.stage === 'connect' || request.idempotent === true;
        if (!safe || n >= maxAttempts) throw new CleaverNetworkError(request.method, url, failure.cause, failure.stage);
        if (failure.stage !== 'connect') repeated = true;
        const delayMs = backoffDelay(n, baseDelayMs, maxDelayMs);
        const code = errorCodes(failure.cause)[0] ?? (failure.cause as Error | undefined)?.name;
        retrying({
          method: request.method,
          path: request.path,
          attempt: n,
          status: 'network',
          delayMs,
          stage: failure.stage,
          code,
        });
        await sleep(delayMs, request.signal);
        continue;
      }
      response.repeated = repeated;
      if ((response.status !== 429 && response.status !== 503) || n >= maxAttempts) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfter !== undefined && retryAfter > maxRetryAfterMs) return response;
      // Retry-After is the server's own estimate: wait at least that long, plus a little jitter
      // so that many clients told the same value do not return in the same millisecond.
      const delayMs =
        retryAfter !== undefined
          ? retryAfter + Math.round(Math.random() * Math.min(1000, baseDelayMs))
          : backoffDelay(n, baseDelayMs, maxDelayMs);
      retrying({ method: request.method, path: request.path, attempt: n, status: response.status, delayMs });
      await sleep(delayMs, request.signal);
    }
  }

  return {
    baseUrl,
    exchange,
    async send(request) {
      const response = await exchange(request);
      if (response.status < 200 || response.status >= 300) throw toApiError(request.method, request.path, response);
      return response;
    },
  };
}
