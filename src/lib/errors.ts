// One error class; modules build theirs with small constructors (style.md#errors). The error handler
// renders every one of them as {title, status} (spec 7, D22).

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly title: string,
    /** Extra body fields (e.g. OAuth `error`), and headers to set on the response. */
    readonly extra: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(title);
  }
}

export const badRequest = (title: string, body?: Record<string, unknown>) => new AppError(400, title, { body });
export const unauthorized = (title = 'Unauthorized') =>
  new AppError(401, title, { headers: { 'www-authenticate': 'Bearer' } });
export const forbidden = (title: string) => new AppError(403, title);
export const notFound = (title: string) => new AppError(404, title);
export const conflict = (title: string) => new AppError(409, title);
export const serviceUnavailable = (title = 'Service temporarily unavailable', retryAfterSec = 5) =>
  new AppError(503, title, { headers: { 'retry-after': String(retryAfterSec) } });
