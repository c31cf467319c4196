// The merchant-side client (spec 4.1–4.13, D3, D6). What it does for the integrator:
// - one token kept in memory and reused until it nears expiry (spec 5.1.3); concurrent calls
//   share one token request;
// - on 401 one new token and one resend, never a retry with the same token (spec 5.1.4);
// - 429 and 503 retried with backoff (http.ts);
// - after a connection broke mid-request, only calls the spec makes safe to repeat are resent,
//   and the "already done" refusal of such a repeat counts as success (D7: a repeated action
//   answers 400 `Order has already same event type`);
// - uploadCatalog waits for SUCCESS/FAIL by polling merchantStatus and never resends (3.2, 4.4).
import { CatalogSyncTimeoutError, CleaverAuthError } from './errors.js';
import {
  abortableSleep,
  createHttp,
  type HttpOptions,
  type HttpRequest,
  type HttpResponse,
  toApiError,
} from './http.js';
import { safeLog } from './logger.js';
import type {
  Acknowledgment,
  AvailabilityItem,
  ConfirmRequest,
  DeliveryTrackingInfo,
  DenyCancellationRequest,
  EventRecord,
  ForwardedAttemptRecorded,
  ForwardedAttemptReport,
  HomologationRun,
  IntegrationConfig,
  ItemAvailability,
  ListenAnswer,
  MerchantRecord,
  MerchantUpdateRequest,
  OnboardingRequest,
  Order,
  OrderEventType,
  OrderWeighing,
  RequestCancellationRequest,
  RequestLogPage,
  RequestLogQuery,
  SandboxScenario,
  SandboxScenarioOptions,
  SandboxScenarioResult,
  Statement,
  StatementLine,
  StatementPage,
  StatementQuery,
  StorePauseStatus,
  SyncStatus,
  TokenResponse,
  ValidatedCode,
  WebhookEndpointReport,
  WeighedLine,
  WeighingAnswer,
} from './types.js';

export interface PosClientOptions extends HttpOptions {
  /** The merchant id (spec 4.1: client_id is the merchant id). */
  clientId: string;
  clientSecret: string;
  /** Renew the token this long before it expires (default 5 minutes). */
  renewBeforeMs?: number;
  /** Clock for token expiry (tests). */
  now?: () => number;
}

export interface UploadCatalogOptions {
  /** Poll merchantStatus until SUCCESS or FAIL (default false: return once accepted, 204). */
  wait?: boolean;
  /** Called with every status read while waiting. */
  onProgress?: (status: SyncStatus, elapsedMs: number) => void;
  /** Give up waiting after this long (default 5 minutes). The upload is never resent. */
  timeoutMs?: number;
  /** Poll interval (default 5 s, as spec 4.4 suggests). */
  intervalMs?: number;
  signal?: AbortSignal;
}

export interface PollOptions {
  /** D3: only these types; the others stay pending (filtering never loses data). */
  eventTypes?: OrderEventType[];
  signal?: AbortSignal;
}

/** D4: at most 100 elements per acknowledgment request. */
export const ACK_BATCH_LIMIT = 100;

/** D7: the refusal of an action the order already has (400; 422 with the opendelivery profile). */
export const ALREADY_DONE_TITLE = 'Order has already same event type';
/** D7: accept/deny when no customer request is open (any more). */
export const NO_REQUEST_TITLE = 'No cancellation request to answer';

const refusedAs = (response: HttpResponse, title: string) =>
  (response.status === 400 || response.status === 422) &&
  typeof response.body === 'object' &&
  response.body !== null &&
  (response.body as { title?: unknown }).title === title;

/**
 * Decides whether an error answer to a REPEATED request (an earlier attempt broke after it went
 * out) means the earlier attempt did the work.
 */
type RepeatDone = (response: HttpResponse) => boolean | Promise<boolean>;

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

export function toAcknowledgment(event: EventRecord | Acknowledgment): Acknowledgment {
  // Values exactly as polled (spec 4.13 rule 4): id is the eventId.
  return 'eventId' in event
    ? { id: event.eventId, orderId: event.orderId, eventType: event.eventType }
    : { id: event.id, orderId: event.orderId, eventType: event.eventType };
}

export function createPosClient(options: PosClientOptions) {
  const http = createHttp(options);
  const now = options.now ?? Date.now;
  const renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
  let cached: CachedToken | undefined;
  let pending: Promise<CachedToken> | undefined;
  let tokenRequests = 0;

  async function requestToken(): Promise<CachedToken> {
    tokenRequests++;
    const started = now();
    const response = await http.exchange({
      method: 'POST',
      path: '/oauth/token',
      body: { client_id: options.clientId, client_secret: options.clientSecret, grant_type: 'client_credentials' },
      idempotent: true,
    });
    if (response.status !== 200) throw toApiError('POST', '/oauth/token', response);
    const token = response.body as TokenResponse;
    // Expiry counted from when we asked, so clock skew with the server never makes us late.
    return { accessToken: token.access_token, expiresAt: started + token.expires_in * 1000 };
  }

  /** The cached token, or one new token shared by every caller waiting for it. */
  function currentToken(): Promise<CachedToken> {
    if (cached && now() < cached.expiresAt - renewBeforeMs) return Promise.resolve(cached);
    pending ??= requestToken().then(
      (token) => {
        cached = token;
        pending = undefined;
        return token;
      },
      (error) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  }

  /**
   * A protected call: bearer token; on 401 one new token and one resend (spec 5.1.4). With
   * `repeatDone`, an error answer to a repeat that it recognises as "already done" is success.
   */
  async function authorized(request: HttpRequest, repeatDone?: RepeatDone): Promise<HttpResponse> {
    const first = await currentToken();
    let response = await http.exchange({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${first.accessToken}` },
    });
    let repeated = response.repeated;
    if (response.status === 401) {
      // Only drop the token if no concurrent call has already replaced it.
      if (cached?.accessToken === first.accessToken) cached = undefined;
      const renewed = await currentToken();
      response = await http.exchange({
        ...request,
        headers: { ...request.headers, authorization: `Bearer ${renewed.accessToken}` },
      });
      repeated ||= response.repeated;
      if (response.status === 401) {
        cached = undefined;
        const error = toApiError(request.method, request.path, response);
        throw error instanceof CleaverAuthError
          ? error
          : new CleaverAuthError(401, error.title, request.method, request.path, response.body);
      }
    }
    if (response.status >= 200 && response.status < 300) return response;
    if (repeated && repeatDone && (await repeatDone(response))) {
      safeLog(
        options.logger,
        'info',
        { method: request.method, path: request.path, status: response.status, body: response.body },
        'the repeat of a request whose connection broke was refused as already done: the first attempt went through',
      );
      return response;
    }
    throw toApiError(request.method, request.path, response);
  }

  const statementPath = (statementId: string, tail?: string) =>
    `/v1/financial/statements/${encodeURIComponent(statementId)}${tail ? `/${tail}` : ''}`;
  const statementsPath = (query: StatementQuery) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const search = params.toString();
    return `/v1/financial/statements${search ? `?${search}` : ''}`;
  };
  /** The `cursor` of a `Link: <…>; rel="next"` header, or null. */
  const nextCursor = (link: string | null) => {
    const target = link ? /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] : undefined;
    return target ? new URL(target, 'http://x').searchParams.get('cursor') : null;
  };

  const orderPath = (orderId: string, action?: string) =>
    `/v1/orders/${encodeURIComponent(orderId)}${action ? `/${action}` : ''}`;

  async function merchantStatus(merchantId = options.clientId, signal?: AbortSignal): Promise<SyncStatus> {
    const r = await authorized({
      method: 'GET',
      path: '/v1/merchantStatus',
      query: { merchantId },
      idempotent: true,
      signal,
    });
    return r.body as SyncStatus;
  }

  async function merchantUpdate(body: MerchantUpdateRequest, signal?: AbortSignal): Promise<void> {
    // Not idempotent: a second upload is a second sync (3.2, 4.4: no resend loop). Resent only
    // when the connection was never made; after a broken connection the CleaverNetworkError
    // says `mayHaveBeenProcessed`, and merchantStatus tells whether a sync started.
    await authorized({ method: 'PUT', path: '/v1/merchantUpdate', body, signal });
  }

  async function getOrder(orderId: string): Promise<Order> {
    return (await authorized({ method: 'GET', path: orderPath(orderId), idempotent: true })).body as Order;
  }

  /** A lifecycle action (D7): repeating it is refused with ALREADY_DONE_TITLE, so it may be resent. */
  async function lifecycleAction(orderId: string, action: string, body?: unknown): Promise<void> {
    await authorized({ method: 'POST', path: orderPath(orderId, action), body, idempotent: true }, (r) =>
      refusedAs(r, ALREADY_DONE_TITLE),
    );
  }

  /**
   * Answering a customer's cancellation request (4.9, 4.10): a repeat is refused with
   * NO_REQUEST_TITLE, which alone cannot tell "my first attempt answered it" from "it was
   * answered otherwise"; the order's lastEvent can.
   */
  async function answerCancellation(orderId: string, action: string, outcome: OrderEventType, body?: unknown) {
    await authorized(
      { method: 'POST', path: orderPath(orderId, action), body, idempotent: true },
      async (r) => refusedAs(r, NO_REQUEST_TITLE) && (await getOrder(orderId)).lastEvent === outcome,
    );
  }

  const client = {
    clientId: options.clientId,
    baseUrl: http.baseUrl,

    /** The access token in use (fetched if needed). */
    async token(): Promise<{ accessToken: string; expiresAt: Date }> {
      const t = await currentToken();
      return { accessToken: t.accessToken, expiresAt: new Date(t.expiresAt) };
    },
    /** Forget the cached token; the next call fetches a new one. */
    dropToken(): void {
      cached = undefined;
    },
    /** How many POST /oauth/token requests this client made (observability, tests). */
    get tokenRequestCount(): number {
      return tokenRequests;
    },

    /** Spec 4.2. */
    async onboard(body: OnboardingRequest): Promise<IntegrationConfig> {
      const r = await authorized({ method: 'PUT', path: '/v1/merchantOnboarding', body, idempotent: true });
      return r.body as IntegrationConfig;
    },

    /** Spec 4.3: 204 means accepted and queued, nothing more. */
    merchantUpdate,

    /** Spec 4.4 (merchantId defaults to the client's own). */
    merchantStatus,

    /**
     * Spec 4.3 + 4.4: uploads once and, with `wait`, polls merchantStatus until SUCCESS or FAIL.
     * A FAIL is returned, not thrown: it can be a partial success; read moreInfo (3.2). Never
     * resends the upload. Throws CatalogSyncTimeoutError when still PROCESSING at the timeout.
     */
    async uploadCatalog(body: MerchantUpdateRequest, opts: UploadCatalogOptions = {}): Promise<SyncStatus | undefined> {
      await merchantUpdate(body, opts.signal);
      if (!opts.wait) return undefined;
      const timeoutMs = opts.timeoutMs ?? 5 * 60_000;
      const intervalMs = opts.intervalMs ?? 5_000;
      const sleep = options.sleep ?? abortableSleep;
      const started = Date.now();
      for (;;) {
        const status = await merchantStatus(options.clientId, opts.signal);
        const elapsed = Date.now() - started;
        opts.onProgress?.(status, elapsed);
        if (status.status !== 'PROCESSING') return status;
        if (elapsed >= timeoutMs) throw new CatalogSyncTimeoutError(timeoutMs, status);
        await sleep(Math.min(intervalMs, Math.max(0, timeoutMs - elapsed)), opts.signal);
      }
    },

    /** Spec 4.5. */
    async getMerchant(): Promise<MerchantRecord> {
      return (await authorized({ method: 'GET', path: '/v1/merchant', idempotent: true })).body as MerchantRecord;
    },

    /**
     * D43: pauses (`available: false`, a reason and an optional `until` at which the product comes
     * back by itself), resumes and counts (`stock.quantity`: kg for KG, units for UN) up to 100
     * products at once, all or none; the products as they are now. A 400 names the field
     * (`items[i].productId`, `items[i].stock.quantity`…). Setting the same state again changes
     * nothing, so it is resent freely.
     */
    async setAvailability(items: AvailabilityItem[]): Promise<ItemAvailability[]> {
      const res = await authorized({
        method: 'POST',
        path: '/v1/merchant/availability',
        body: { items },
        idempotent: true,
      });
      return (res.body as { items: ItemAvailability[] }).items;
    },

    /** D43: the store receives no orders until `until` (ISO), when it opens again by itself. */
    async pauseStore(pause: { reason: string; until: string }): Promise<StorePauseStatus> {
      return (await authorized({ method: 'POST', path: '/v1/merchant/pause', body: pause, idempotent: true }))
        .body as StorePauseStatus;
    },

    /** D43: ends the store's pause now (AVAILABLE again). */
    async resumeStore(): Promise<StorePauseStatus> {
      return (await authorized({ method: 'DELETE', path: '/v1/merchant/pause', idempotent: true }))
        .body as StorePauseStatus;
    },

    /** Spec 4.6. */
    getOrder,

    /** Spec 4.7 (202). Resent after a broken connection; "already same event type" then means done. */
    async confirm(orderId: string, body: ConfirmRequest): Promise<void> {
      await lifecycleAction(orderId, 'confirm', body);
    },
    /** Spec 4.8 (202; watch for CANCELLED). Resent like confirm. */
    async requestCancellation(orderId: string, body: RequestCancellationRequest): Promise<void> {
      await lifecycleAction(orderId, 'requestCancellation', body);
    },
    /** Spec 4.9: answer to ORDER_CANCELLATION_REQUEST (204). Resent; done if the order is CANCELLED. */
    async acceptCancellation(orderId: string): Promise<void> {
      await answerCancellation(orderId, 'acceptCancellation', 'CANCELLED');
    },
    /** Spec 4.10 (204; the order stays active). Resent; done if the order's last event is CANCELLED_DENIED. */
    async denyCancellation(orderId: string, body: DenyCancellationRequest): Promise<void> {
      await answerCancellation(orderId, 'denyCancellation', 'CANCELLED_DENIED', body);
    },
    /** D6 (202). Resent like confirm. */
    async readyForPickup(orderId: string): Promise<void> {
      await lifecycleAction(orderId, 'readyForPickup');
    },
    /** Open Delivery's "preparation started" (202). Resent like confirm. */
    async preparing(orderId: string): Promise<void> {
      await lifecycleAction(orderId, 'preparing');
    },
    /** Open Delivery's "customer picked up" on a TAKEOUT order (202, PICKED_UP). Resent like confirm. */
    async pickedUp(orderId: string): Promise<void> {
      await lifecycleAction(orderId, 'pickedUp');
    },
    /**
     * Open Delivery's `PATCH …/details`: when preparation should start (200, no event). Setting the
     * same time again changes nothing, so it is resent freely.
     */
    async updateDetails(orderId: string, details: { preparationStartDateTime: string }): Promise<void> {
      await authorized({ method: 'PATCH', path: orderPath(orderId, 'details'), body: details, idempotent: true });
    },
    /** D6 (202), optional tracking info as in 4.12. Resent like confirm. */
    async dispatch(orderId: string, body?: { deliveryTrackingInfo?: DeliveryTrackingInfo }): Promise<void> {
      await lifecycleAction(orderId, 'dispatch', body);
    },
    /** D6 (202). Resent like confirm. */
    async delivered(orderId: string): Promise<void> {
      await lifecycleAction(orderId, 'delivered');
    },
    /**
     * D38: the weighed kilograms of KG lines (202), by their index in the order's `items`; at most
     * 3 decimals, within the merchant's tolerance (±20 % of the ordered quantity by default), from
     * CONFIRMED until ready or dispatched. A 400 names `items[i].quantity` with the allowed range,
     * and nothing is applied. Weighing the same lines again replaces the earlier weights, so a
     * resend after a broken connection changes nothing: it is resent freely.
     */
    async weigh(orderId: string, lines: WeighedLine[]): Promise<WeighingAnswer> {
      const r = await authorized({
        method: 'POST',
        path: orderPath(orderId, 'weighing'),
        body: { items: lines },
        idempotent: true,
      });
      return r.body as WeighingAnswer;
    },
    /**
     * D42: waits for the decision on a weighing that asked the customer (PENDING_APPROVAL),
     * reading the order every `pollMs` (default 2 s) until its `weighing` is decided; resolves
     * with it. The deadline's default always comes, so the wait ends by the deadline, plus a
     * margin for the platform's worker (`timeoutMs`, default: until the deadline + 30 s).
     */
    async waitForWeighingDecision(
      orderId: string,
      weighingId: string,
      options: { pollMs?: number; timeoutMs?: number } = {},
    ): Promise<OrderWeighing> {
      const pollMs = options.pollMs ?? 2_000;
      let giveUpAt = options.timeoutMs !== undefined ? Date.now() + options.timeoutMs : undefined;
      for (;;) {
        const weighing = (await getOrder(orderId)).weighing;
        if (weighing && weighing.weighingId === weighingId && weighing.state !== 'PENDING_APPROVAL') return weighing;
        giveUpAt ??= weighing ? Date.parse(weighing.deadline) + 30_000 : Date.now() + 330_000;
        if (Date.now() >= giveUpAt) {
          throw new Error(`weighing ${weighingId} of order ${orderId} was not decided in time`);
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
    /** Spec 4.11: 400 `Invalid code provided` means do not hand the order over. A check: resent freely. */
    async validateCode(orderId: string, deliveryCode: string): Promise<ValidatedCode> {
      const r = await authorized({
        method: 'POST',
        path: orderPath(orderId, 'validateCode'),
        body: { deliveryCode },
        idempotent: true,
      });
      return r.body as ValidatedCode;
    },
    /** Spec 4.12 (202). Resent: a repeat is stored again (D7), which changes nothing visible. */
    async tracking(orderId: string, deliveryTrackingInfo: DeliveryTrackingInfo): Promise<void> {
      await authorized({
        method: 'POST',
        path: orderPath(orderId, 'tracking'),
        body: { deliveryTrackingInfo },
        idempotent: true,
      });
    },

    /**
     * Sandbox only (404 in production): the delivery code the sandbox's customer tells the courier
     * for this order, to send to validateCode (spec 4.11). In production that code comes only from
     * the person at the door; the sandbox has no such person, so it answers here.
     */
    async sandboxCustomerDeliveryCode(orderId: string): Promise<string> {
      const r = await authorized({
        method: 'GET',
        path: `/v1/sandbox/orders/${encodeURIComponent(orderId)}/customerDeliveryCode`,
        idempotent: true,
      });
      return (r.body as { customerDeliveryCode: string }).customerDeliveryCode;
    },

    /**
     * This key's request log, newest first: its last 1,000 requests of the last 24 hours, with
     * the error title and, for a failed request, its body (secrets redacted).
     */
    async listRequests(query: RequestLogQuery = {}): Promise<RequestLogPage> {
      const params = new URLSearchParams();
      if (query.limit !== undefined) params.set('limit', String(query.limit));
      if (query.failed !== undefined) params.set('failed', String(query.failed));
      if (query.status !== undefined) params.set('status', String(query.status));
      if (query.before !== undefined) params.set('before', query.before);
      const search = params.toString();
      const r = await authorized({
        method: 'GET',
        path: `/v1/developer/requests${search ? `?${search}` : ''}`,
        idempotent: true,
      });
      return r.body as RequestLogPage;
    },
    /** The merchant's webhook endpoint as the platform sees it, and its latest attempts (1–100, default 20). */
    async webhookEndpoint(limit?: number): Promise<WebhookEndpointReport> {
      const r = await authorized({
        method: 'GET',
        path: `/v1/developer/webhooks${limit !== undefined ? `?limit=${limit}` : ''}`,
        idempotent: true,
      });
      return r.body as WebhookEndpointReport;
    },

    /** D45: the merchant's statements, newest period first; `next` from the answer's Link header. */
    async listStatements(query: StatementQuery = {}): Promise<StatementPage> {
      const r = await authorized({ method: 'GET', path: statementsPath(query), idempotent: true });
      return { items: r.body as Statement[], next: nextCursor(r.headers.get('link')) };
    },
    /** D45: one statement with its totals. */
    async getStatement(statementId: string): Promise<Statement> {
      const r = await authorized({ method: 'GET', path: statementPath(statementId), idempotent: true });
      return r.body as Statement;
    },
    /** D45: a statement and its lines, oldest first. */
    async statementLines(statementId: string): Promise<{ statement: Statement; lines: StatementLine[] }> {
      const r = await authorized({ method: 'GET', path: statementPath(statementId, 'lines'), idempotent: true });
      return r.body as { statement: Statement; lines: StatementLine[] };
    },
    /**
     * D45: the same reads as CSV for a spreadsheet (a header row, `.` as decimal point, UTF-8):
     * `list` (one page of statements), `statement` (one row) or `lines`.
     */
    async statementsCsv(what: { list: StatementQuery } | { statement: string } | { lines: string }): Promise<string> {
      const path =
        'list' in what
          ? statementsPath(what.list)
          : 'statement' in what
            ? statementPath(what.statement)
            : statementPath(what.lines, 'lines');
      const r = await authorized({ method: 'GET', path, headers: { accept: 'text/csv' }, idempotent: true });
      return String(r.body ?? '');
    },

    /** Sandbox only (404 in production): the scenarios `playScenario` accepts. */
    async listScenarios(): Promise<SandboxScenario[]> {
      const r = await authorized({ method: 'GET', path: '/v1/sandbox/scenarios', idempotent: true });
      return r.body as SandboxScenario[];
    },
    /**
     * Sandbox only: an order shaped by the scenario from this merchant's catalog, and the events
     * that follow (customer cancellation, logistics, platform events). Not resent after a broken
     * connection: a second play is a second order.
     */
    async playScenario(scenario: string, options?: SandboxScenarioOptions): Promise<SandboxScenarioResult> {
      const r = await authorized({
        method: 'POST',
        path: '/v1/sandbox/scenarios',
        body: { scenario, ...(options ? { options } : {}) },
      });
      return r.body as SandboxScenarioResult;
    },

    /**
     * Sandbox only: starts a homologation run of this key (409 while one is RUNNING). Timings in
     * milliseconds override the defaults. Not resent after a broken connection.
     */
    async startHomologation(timings?: Record<string, number>): Promise<HomologationRun> {
      const r = await authorized({ method: 'POST', path: '/v1/homologations', body: timings ? { timings } : {} });
      return r.body as HomologationRun;
    },
    /** Sandbox only: a run of this key; its criteria are `pending` while RUNNING. */
    async getHomologation(id: string): Promise<HomologationRun> {
      const r = await authorized({
        method: 'GET',
        path: `/v1/homologations/${encodeURIComponent(id)}`,
        idempotent: true,
      });
      return r.body as HomologationRun;
    },
    /** Sandbox only: the Ed25519 public key (SPKI PEM) that verifies homologation reports. */
    async homologationSigningKey(): Promise<{ algorithm: 'Ed25519'; publicKey: string }> {
      const r = await authorized({ method: 'GET', path: '/v1/homologations/signingKey', idempotent: true });
      return r.body as { algorithm: 'Ed25519'; publicKey: string };
    },
    /**
     * Sandbox only (`cleaver listen`): waits up to `waitSeconds` for this merchant's webhooks,
     * which are handed over here instead of going to the registered URL while listening lasts.
     * Not resent after a broken connection: deliveries it claimed are offered again when their
     * lease runs out.
     */
    async listenForWebhooks(
      forwardTo: string,
      opts: { waitSeconds?: number; signal?: AbortSignal } = {},
    ): Promise<ListenAnswer> {
      const r = await authorized({
        method: 'POST',
        path: '/v1/sandbox/listen',
        body: { forwardTo, ...(opts.waitSeconds !== undefined ? { waitSeconds: opts.waitSeconds } : {}) },
        signal: opts.signal,
      });
      return r.body as ListenAnswer;
    },
    /** Sandbox only: the local answer to a forwarded webhook, recorded as its attempt. */
    async reportForwardedAttempt(
      deliveryId: string,
      report: ForwardedAttemptReport,
    ): Promise<ForwardedAttemptRecorded> {
      const r = await authorized({
        method: 'POST',
        path: `/v1/sandbox/listen/deliveries/${encodeURIComponent(deliveryId)}/attempts`,
        body: report,
      });
      return r.body as ForwardedAttemptRecorded;
    },
    /** Sandbox only: stop listening; webhooks go to the registered URL again. */
    async stopListening(): Promise<void> {
      await authorized({ method: 'DELETE', path: '/v1/sandbox/listen', idempotent: true });
    },

    /** Pending events of this integration key, oldest first (at most 100, one acknowledgment's worth); [] on 204. */
    async pollEvents(opts: PollOptions = {}): Promise<EventRecord[]> {
      const r = await authorized({
        method: 'GET',
        path: '/v1/events:polling',
        query: { eventType: opts.eventTypes },
        idempotent: true,
        signal: opts.signal,
      });
      return r.status === 204 || r.body === undefined ? [] : (r.body as EventRecord[]);
    },

    /**
     * Spec 4.13: acknowledge ONLY events already processed and persisted. Sent in batches of
     * 100, in order; re-sending is safe (rule 3), so network failures are retried. The service
     * processes every element of a batch even when one is refused, and answers that refusal.
     */
    async acknowledgeEvents(events: Array<EventRecord | Acknowledgment>): Promise<void> {
      const acks = events.map(toAcknowledgment);
      for (let i = 0; i < acks.length; i += ACK_BATCH_LIMIT) {
        await authorized({
          method: 'POST',
          path: '/v1/events/acknowledgment',
          body: acks.slice(i, i + ACK_BATCH_LIMIT),
          idempotent: true,
        });
      }
    },
  };
  return client;
}

export type PosClient = ReturnType<typeof createPosClient>;
