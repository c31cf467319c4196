/** An answer of the API that is not a success, after retries. `title` is the spec's error title (spec 7). */
export class CleaverApiError extends Error {
  override name = 'CleaverApiError';
  constructor(
    readonly status: number,
    readonly title: string,
    readonly method: string,
    readonly path: string,
    readonly body: unknown,
  ) {
    super(`${method} ${path} → ${status} ${title}`);
  }
}

/** 401/403: bad client credentials, or a token refused even after one renewal (spec 5.1.4). */
export class CleaverAuthError extends CleaverApiError {
  override name = 'CleaverAuthError';
}

/** fetch() reports "fetch failed"; the reason (ECONNREFUSED, timeout…) is one level down. */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as Error & { cause?: unknown }).cause;
  if (inner instanceof Error) {
    const code = (inner as Error & { code?: string }).code;
    return `${cause.message} (${code ?? inner.message})`;
  }
  return cause.message;
}

/**
 * How far a failed request got:
 * - `connect`: no connection was made (refused, unknown host, connect timeout): the server got
 *   nothing;
 * - `request`: the connection broke, or the attempt timed out, before the answer's status line:
 *   the server may or may not have acted;
 * - `response`: the status line came but the body broke off: the server did receive it.
 */
export type NetworkFailureStage = 'connect' | 'request' | 'response';

/** The server could not be reached or the connection broke (refused, reset, DNS…), after retries when they apply. */
export class CleaverNetworkError extends Error {
  override name = 'CleaverNetworkError';
  constructor(
    readonly method: string,
    readonly url: string,
    override readonly cause: unknown,
    readonly stage: NetworkFailureStage = 'request',
  ) {
    super(`${method} ${url}: ${describeCause(cause)}`);
  }

  /** True unless the request certainly never reached the server: check before sending it again. */
  get mayHaveBeenProcessed(): boolean {
    return this.stage !== 'connect';
  }
}

/** uploadCatalog({wait: true}) ran out of time while the sync was still PROCESSING. Nothing was resent. */
export class CatalogSyncTimeoutError extends Error {
  override name = 'CatalogSyncTimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly lastStatus: unknown,
  ) {
    super(`catalog sync still PROCESSING after ${Math.round(timeoutMs / 1000)} s; it was not resent (spec 3.2)`);
  }
}

/** verifyWebhook refused a notification; `reason` says which check failed. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}
