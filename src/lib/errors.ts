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

/**
 * An action the order already has, or one its state does not allow (D7): the domain's one outcome,
 * whoever asked. It is a 400 `{title, status}` as it is; the edge answers an `opendelivery` key in
 * Open Delivery's words instead where the route declares `opendelivery.refusedAction` (422, with
 * `detail` when the route declares body422: D28.3, answerRefusal in lib/route-declaration.ts).
 */
export class Refusal extends AppError {
  override name = 'Refusal';
  constructor(
    title: string,
    /** What Open Delivery's answer adds to the title (requestCancellation's cancellationStatus, D28.3). */
    readonly detail?: Record<string, unknown>,
  ) {
    super(400, title);
  }
}
