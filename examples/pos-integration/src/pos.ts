// The reference POS. Two things move an order forward:
// - order events, handled by the polling loop (runEventLoop): CREATED → confirm; a customer's
//   ORDER_CANCELLATION_REQUEST → accept while preparation can still stop, deny once the order
//   left; CANCELLED and the echoes of our own actions reconcile the local status;
// - the kitchen clock: a confirmed order is dispatched (or made ready for pickup) after its
//   preparation time, and a dispatched order is delivered after the delivery time.
// Before a confirmed order leaves the kitchen, its KG lines go on the scale and their weights are
// sent (D38): the customer pays for what the cut weighs, not for the estimate.
// Every change lands in the state file before the event is acknowledged (spec 4.13 rule 1).
// The file also records each processed occurrence (orderId, eventType, createdAt): an event
// that comes back because the process died before acknowledging it is recognised and only
// acknowledged. Calls repeated after a crash (confirm, dispatch…) are refused with 400 by the
// platform (D7) and taken as "already done".
import { createHash } from 'node:crypto';
import {
  CleaverApiError,
  CleaverAuthError,
  type EventRecord,
  type MerchantUpdateRequest,
  type PosClient,
  runEventLoop,
} from '@cleaver/pos-client';
import {
  type LocalOrder,
  type LocalOrderStatus,
  loadState,
  occurrenceKey,
  type PosState,
  saveState,
} from './state-store.js';

export interface ReferencePosOptions {
  client: PosClient;
  statePath: string;
  catalog: MerchantUpdateRequest;
  webhookURL: string;
  pollIntervalMs?: number;
  preparationMs?: number;
  deliveryMs?: number;
  kitchenTickMs?: number;
  catalogPollMs?: number;
  /**
   * The code the customer tells the courier at the door (spec 4.11). When given, the POS checks
   * it with validateCode before marking a delivery done, and never hands over after a refusal.
   */
  deliveryCodeOf?: (orderId: string) => Promise<string | undefined>;
  log?: (line: string) => void;
}

/** A 4xx other than auth and rate limiting: the platform will say the same again; do not retry. */
function isPermanent(error: unknown): error is CleaverApiError {
  return (
    error instanceof CleaverApiError &&
    !(error instanceof CleaverAuthError) &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429
  );
}

/**
 * D38: what the scale reads for a line ordered as `ordered` kilograms. A real POS reads its
 * scale; this one makes up a plausible reading, within ±5 % of the order (well inside the
 * platform's tolerance), in grams, the same for the same order and line every time.
 */
export function scaleReading(orderId: string, index: number, ordered: number): number {
  const digest = createHash('sha256').update(`${orderId}/${index}`).digest();
  const factor = 0.95 + (digest.readUInt16BE(0) % 101) / 1000;
  return Math.max(1, Math.round(ordered * factor * 1000)) / 1000;
}

const ALREADY = 'Order has already same event type';
const ALREADY_ANSWERED = 'No cancellation request to answer';
const CODE_REFUSED = 'delivery code refused: not handed over';

export function createReferencePos(options: ReferencePosOptions) {
  const { client, statePath } = options;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  let state: PosState = loadState(statePath);
  const processed = new Set(state.processed.map(occurrenceKey));

  const save = () => saveState(statePath, state);
  // Event handling and the kitchen clock both change the state: one at a time, so neither
  // saves (or drops, on reload) a half-made change of the other.
  let queue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  }
  /** Drops in-memory changes that were not saved (a handler failed half-way). */
  const reload = () => {
    state = loadState(statePath);
  };
  const now = () => new Date().toISOString();

  function setStatus(order: LocalOrder, status: LocalOrderStatus): void {
    order.status = status;
    order.updatedAt = now();
  }

  /** Runs a platform action; a permanent refusal is noted on the order and the work moves on. */
  async function act(
    order: LocalOrder,
    name: string,
    call: () => Promise<unknown>,
  ): Promise<'done' | 'already' | 'refused'> {
    try {
      await call();
      return 'done';
    } catch (error) {
      if (!isPermanent(error)) throw error;
      order.notes.push(`${name}: ${error.status} ${error.title}`);
      // D7: a request already answered (by this POS, just before a crash lost the state file's
      // record of it) is refused with this title: the answer stands, so it is not a refusal.
      return error.title === ALREADY || error.title === ALREADY_ANSWERED ? 'already' : 'refused';
    }
  }

  async function ensureOrder(orderId: string): Promise<LocalOrder> {
    const known = state.orders[orderId];
    if (known) return known;
    const order = await client.getOrder(orderId);
    const local: LocalOrder = {
      orderId,
      displayId: order.displayId,
      type: order.type,
      externalCode: `PDV-${Object.keys(state.orders).length + 1}`,
      status: 'RECEIVED',
      total: order.total.orderAmount.value,
      notes: [],
      ...(order.orderTiming === 'SCHEDULED' && order.schedule
        ? { notBefore: order.schedule.scheduledDateTimeStart }
        : {}),
      updatedAt: now(),
    };
    state.orders[orderId] = local;
    return local;
  }

  async function applyEvent(event: EventRecord): Promise<string> {
    const order = await ensureOrder(event.orderId);
    switch (event.eventType) {
      case 'CREATED': {
        if (order.status !== 'RECEIVED') return `already ${order.status}`;
        const full = await client.getOrder(order.orderId);
        const r = await act(order, 'confirm', () =>
          client.confirm(order.orderId, {
            createdAt: full.createdAt,
            orderExternalCode: order.externalCode,
            preparationTime: 20,
          }),
        );
        if (r !== 'refused') setStatus(order, 'CONFIRMED');
        return `confirm ${r}`;
      }
      case 'ORDER_CANCELLATION_REQUEST': {
        // Preparation can still stop until the order leaves the shop (spec 4.9).
        if (order.status === 'RECEIVED' || order.status === 'CONFIRMED') {
          const r = await act(order, 'acceptCancellation', () => client.acceptCancellation(order.orderId));
          if (r === 'done' || (r === 'already' && (await client.getOrder(order.orderId)).lastEvent === 'CANCELLED')) {
            setStatus(order, 'CANCELLED');
          }
          return `accept ${r}`;
        }
        const r = await act(order, 'denyCancellation', () =>
          client.denyCancellation(order.orderId, {
            reason: 'O pedido já saiu para entrega',
            code: 'DELIVERY_PROBLEM',
          }),
        );
        return `deny ${r}`;
      }
      case 'CANCELLED':
        setStatus(order, 'CANCELLED');
        return 'cancelled';
      // Echoes of our own actions (or of a step done before a crash and not saved): catch up.
      case 'CONFIRMED':
        if (order.status === 'RECEIVED') setStatus(order, 'CONFIRMED');
        return 'noted';
      case 'READY_FOR_PICKUP':
        if (order.status === 'RECEIVED' || order.status === 'CONFIRMED') setStatus(order, 'READY_FOR_PICKUP');
        return 'noted';
      case 'DISPATCHED':
        if (['RECEIVED', 'CONFIRMED', 'READY_FOR_PICKUP'].includes(order.status)) setStatus(order, 'DISPATCHED');
        return 'noted';
      case 'DELIVERED':
        if (order.status !== 'CANCELLED') setStatus(order, 'DELIVERED');
        return 'noted';
      default:
        return 'noted';
    }
  }

  /** The event handler: process, then save state and the occurrence together; the loop acknowledges. */
  function handleEvent(event: EventRecord): Promise<void> {
    return exclusive(() => handleEventNow(event));
  }

  async function handleEventNow(event: EventRecord): Promise<void> {
    const key = occurrenceKey(event);
    if (processed.has(key)) return; // saved before a crash, not acknowledged then: acknowledge now
    let outcome: string;
    try {
      outcome = await applyEvent(event);
    } catch (error) {
      reload();
      throw error;
    }
    state.processed.push({
      orderId: event.orderId,
      eventType: event.eventType,
      createdAt: event.createdAt,
      processedAt: now(),
      outcome,
    });
    save();
    processed.add(key);
    log(`${event.eventType} ${state.orders[event.orderId]?.displayId ?? event.orderId}: ${outcome}`);
  }

  /**
   * D38: the KG lines on the scale, once, before the order is made ready or dispatched. The
   * weights are saved with the new total; a refusal (the order was cancelled meanwhile) is noted
   * and the order moves on as before.
   */
  async function weighKgLines(order: LocalOrder): Promise<void> {
    if (order.weights) return;
    const full = await client.getOrder(order.orderId);
    const lines = full.items.flatMap((item, index) =>
      item.unit === 'KG'
        ? [{ index, quantity: scaleReading(order.orderId, index, item.orderedQuantity ?? item.quantity) }]
        : [],
    );
    if (lines.length > 0 && (await act(order, 'weigh', () => client.weigh(order.orderId, lines))) === 'done') {
      order.total = (await client.getOrder(order.orderId)).total.orderAmount.value;
      log(`${order.displayId}: weighed ${lines.map((l) => `line ${l.index} ${l.quantity} kg`).join(', ')}`);
    }
    order.weights = Object.fromEntries(lines.map((l) => [String(l.index), l.quantity]));
  }

  /** The kitchen clock: moves confirmed and dispatched orders on when their time has come. */
  function kitchenTick(): Promise<void> {
    return exclusive(kitchenTickNow);
  }

  async function kitchenTickNow(): Promise<void> {
    const preparationMs = options.preparationMs ?? 60_000;
    const deliveryMs = options.deliveryMs ?? 120_000;
    const at = Date.now();
    for (const order of Object.values(state.orders)) {
      const age = at - Date.parse(order.updatedAt);
      try {
        // D44: an encomenda waits for its slot (the platform refuses an earlier dispatch).
        const slotStarted = order.notBefore === undefined || Date.parse(order.notBefore) <= at;
        if (order.status === 'CONFIRMED' && age >= preparationMs && slotStarted) {
          await weighKgLines(order);
          if (order.type === 'DELIVERY') {
            const r = await act(order, 'dispatch', () => client.dispatch(order.orderId));
            setStatus(order, r === 'refused' ? order.status : 'DISPATCHED');
            // spec 4.12: the customer follows the courier from the moment the order leaves.
            if (r !== 'refused') {
              await act(order, 'tracking', () =>
                client.tracking(order.orderId, {
                  event: { type: 'DELIVERY_ONGOING', message: 'Saiu para entrega', datetime: now() },
                }),
              );
            }
          } else {
            const r = await act(order, 'readyForPickup', () => client.readyForPickup(order.orderId));
            setStatus(order, r === 'refused' ? order.status : 'READY_FOR_PICKUP');
          }
          save();
          log(`${order.displayId}: ${order.status}`);
        } else if (order.status === 'DISPATCHED' && age >= deliveryMs && !order.notes.includes(CODE_REFUSED)) {
          const code = options.deliveryCodeOf ? await options.deliveryCodeOf(order.orderId) : undefined;
          // spec 4.11: after a refused code the order is not handed over.
          if (
            code !== undefined &&
            (await act(order, 'validateCode', () => client.validateCode(order.orderId, code))) === 'refused'
          ) {
            order.notes.push(CODE_REFUSED);
            save();
            continue;
          }
          const r = await act(order, 'delivered', () => client.delivered(order.orderId));
          setStatus(order, r === 'refused' ? order.status : 'DELIVERED');
          save();
          log(`${order.displayId}: ${order.status}`);
        }
      } catch (error) {
        reload();
        log(`kitchen: ${order.displayId}: ${(error as Error).message}; will retry`);
        return;
      }
    }
  }

  /** Onboarding and catalog, each done once per change; a catalog FAIL is reported, never resent in a loop (3.2). */
  async function setup(signal?: AbortSignal): Promise<void> {
    if (state.onboardedWebhookURL !== options.webhookURL) {
      await client.onboard({ ordersWebhookURL: options.webhookURL });
      state.onboardedWebhookURL = options.webhookURL;
      save();
      log(`onboarded: webhook ${options.webhookURL}`);
    }
    const hash = createHash('sha256').update(JSON.stringify(options.catalog)).digest('hex');
    if (state.catalog?.hash === hash && state.catalog.status !== 'SENT') return;
    const wait = { wait: true, intervalMs: options.catalogPollMs ?? 5_000, timeoutMs: 10 * 60_000, signal };
    let result: Awaited<ReturnType<PosClient['merchantStatus']>> | undefined;
    if (state.catalog?.hash === hash) {
      // Sent before a restart: follow its status rather than sending it again. A 404 (D16: no
      // sync at all) means the process died before the upload reached the platform.
      try {
        for (;;) {
          result = await client.merchantStatus();
          if (result.status !== 'PROCESSING') break;
          await new Promise((r) => setTimeout(r, wait.intervalMs));
        }
      } catch (error) {
        if (!(error instanceof CleaverApiError && error.status === 404)) throw error;
        result = undefined;
      }
    }
    if (!result) {
      state.catalog = { hash, status: 'SENT', moreInfo: null, at: now() };
      save();
      result = await client.uploadCatalog(options.catalog, wait);
    }
    state.catalog = { hash, status: result!.status, moreInfo: result!.moreInfo, at: now() };
    save();
    log(`catalog ${result!.status}${result!.moreInfo ? `: ${result!.moreInfo}` : ''}`);
  }

  return {
    get state(): PosState {
      return state;
    },
    setup,
    handleEvent,
    kitchenTick,
    /** Setup, then the polling loop and the kitchen clock until the signal aborts. */
    async run(signal: AbortSignal): Promise<void> {
      await setup(signal);
      const tickMs = options.kitchenTickMs ?? 1_000;
      let ticking = false;
      const timer = setInterval(() => {
        if (ticking) return; // the previous tick is still working
        ticking = true;
        kitchenTick()
          .catch((error: unknown) => log(`kitchen: ${(error as Error).message}`))
          .finally(() => {
            ticking = false;
          });
      }, tickMs);
      try {
        await runEventLoop(client, (event) => handleEvent(event), {
          signal,
          intervalMs: options.pollIntervalMs ?? 5_000,
          errorDelayMs: 1_000,
          onError: (error, ctx) =>
            log(
              `${ctx.stage} failed${ctx.event ? ` for ${ctx.event.eventType} ${ctx.event.orderId}` : ''}: ${(error as Error).message}`,
            ),
        });
      } finally {
        clearInterval(timer);
        await exclusive(async () => {}); // let a running tick finish
      }
    },
  };
}
