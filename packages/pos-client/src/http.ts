// The HTTP core shared by the merchant, logistics and operator clients: one request, with the
// retries the spec asks for. 429 (spec 8) and 503 (spec 4.4, 4.13: "retry with exponential
// backoff") are retried with exponential backoff and jitter, honouring Retry-After. Both answers
// mean the server did not act on the request, so resending any method is safe. A network
// failure is retried only for requests the caller marks idempotent.
import { CleaverApiError, CleaverAuthError, CleaverNetworkError } from './errors.js';

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
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  query?: Record<string, string | string[] | undefined>;
  /** A string is sent as is (signed requests need the exact bytes); anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** May be resent after a network failure (the server may or may not have acted). */
  idempotent?: boolean;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer has a JSON body; the text otherwise; undefined when empty. */
  body: unknown;
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

  function urlOf(request: HttpRequest): string {
    const url = new URL(baseUrl + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, v);
    }
    return url.toString();
  }

  async function attempt(request: HttpRequest, url: string, payload: string | undefined): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    if (options.userAgent) headers['user-agent'] = options.userAgent;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const response = await doFetch(url, { method: request.method, headers, body: payload, signal });
    const text = await response.text();
    let body: unknown;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return { status: response.status, headers: response.headers, body };
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
    for (let n = 1; ; n++) {
      let response: HttpResponse;
      try {
        response = await attempt(request, url, payload);
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason ?? error;
        if (!request.idempotent || n >= maxAttempts) throw new CleaverNetworkError(request.method, url, error);
        const delayMs = backoffDelay(n, baseDelayMs, maxDelayMs);
        options.onRetry?.({ method: request.method, path: request.path, attempt: n, status: 'network', delayMs });
        await sleep(delayMs, request.signal);
        continue;
      }
      if ((response.status !== 429 && response.status !== 503) || n >= maxAttempts) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfter !== undefined && retryAfter > maxRetryAfterMs) return response;
      // Retry-After is the server's own estimate: wait at least that long, plus a little jitter
      // so that many clients told the same value do not return in the same millisecond.
      const delayMs =
        retryAfter !== undefined
          ? retryAfter + Math.round(Math.random() * Math.min(1000, baseDelayMs))
          : backoffDelay(n, baseDelayMs, maxDelayMs);
      options.onRetry?.({ method: request.method, path: request.path, attempt: n, status: response.status, delayMs });
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
