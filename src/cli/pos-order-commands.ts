// `cleaver pos orders ACTION ORDER_ID`: every order endpoint of the POS (spec 4.6–4.12, D6)
// through @cleaver/pos-client, so a command behaves exactly as the library does (token reuse,
// one renewal on 401, backoff, "already done" recognised on a resend). The actions are a table:
// which options each takes, which it needs, and what it calls.
import { CANCELLATION_CODES, type DeliveryTrackingInfo, type Order, type PosClient } from '@cleaver/pos-client';
import {
  type Cell,
  EXIT,
  type Io,
  money,
  POS_HELP,
  posClient,
  printFields,
  printJson,
  printTable,
  requireUuid,
  UsageError,
} from './common.js';
import {
  bodyFile,
  cancellationCode,
  isoDate,
  need,
  number,
  ORDERS_OPTIONS,
  type OrderOption,
  str,
  TRACKING,
  trackingInfo,
  type Values,
  weighedLines,
} from './pos-order-arguments.js';
import { stdoutPaint } from './terminal.js';

export { ORDERS_OPTIONS } from './pos-order-arguments.js';

export const ORDERS_COMMAND_HELP = `Usage: cleaver pos orders ACTION ORDER_ID [options]

  show ORDER_ID                      the order (spec 4.6); --json for the whole document
  confirm ORDER_ID --external-code CODE [--created-at ISO] [--preparation-time MIN] [--reason TEXT]
                                     confirm (spec 4.7); createdAt is read from the order when not given
  preparing ORDER_ID                 preparation started (POST /v1/orders/{id}/preparing)
  details ORDER_ID --preparation-start ISO
                                     when preparation should start (PATCH /v1/orders/{id}/details;
                                     no event, refused once the order is CANCELLED or CONCLUDED)
  ready ORDER_ID                     ready for pickup (D6)
  picked-up ORDER_ID                 a TAKEOUT order collected by the customer (POST
                                     /v1/orders/{id}/pickedUp; PICKED_UP), from CONFIRMED or ready
  dispatch ORDER_ID [tracking options]   out for delivery (D6), optionally with tracking info
  delivered ORDER_ID                 delivered to the customer (D6)
  cancel ORDER_ID --reason TEXT --code CODE [--mode AUTO|MANUAL] [--out-of-stock ITEM_ID …]
         [--invalid-item ITEM_ID …]  ask the platform to cancel (spec 4.8; mode defaults to MANUAL);
                                     watch for CANCELLED
  accept-cancellation ORDER_ID       accept the customer's cancellation request (spec 4.9)
  deny-cancellation ORDER_ID --reason TEXT --code CODE
                                     deny it (spec 4.10); the order goes on
  validate-code ORDER_ID --code DELIVERY_CODE
                                     check the customer's code before handing over (spec 4.11);
                                     exit code 1 with "Invalid code provided" means do not hand over
  track ORDER_ID [tracking options]  send tracking of the delivery (spec 4.12)
  weigh ORDER_ID --line INDEX=KG …   the scale's weight of KG lines (D38), e.g. --line 0=0.94 --line 2=1.305,
                                     or its label (D41): --line 0 --label 2010085025049; out of tolerance it
                                     waits for the customer's decision (D42):
                                     INDEX is the line's position in the order's items (from 0); from
                                     CONFIRMED until ready or dispatched, within the merchant's tolerance
                                     (±20 % of the ordered quantity by default); prints the new totals

Tracking options (track, dispatch):
  --lat DEGREES --lng DEGREES        where the courier is (geoLocalization)
  --event-type TYPE                  e.g. PICKUP_ONGOING, PICKUP_ARRIVED, DELIVERY_ONGOING, DELIVERY_ARRIVED
  --message TEXT                     with --event-type
  --datetime ISO                     when (default: now, with --event-type)
  --eta-minutes MIN                  deliveryEtaInMinutes
  --courier NAME                     deliveryPerson.name
  --json-body FILE                   the whole request body from a file instead (confirm, details,
                                     cancel, deny-cancellation, dispatch, track, weigh), sent as is

Codes (--code of cancel and deny-cancellation): ${CANCELLATION_CODES.join(', ')}

${POS_HELP}`;

interface Outcome {
  /** The line for people. */
  text: string;
  /** The --json document. */
  json: Record<string, unknown>;
}

interface Action {
  options: OrderOption[];
  run(client: PosClient, orderId: string, values: Values, io: Io): Promise<Outcome>;
}

const done = (orderId: string, action: string, text: string, extra: Record<string, unknown> = {}): Outcome => ({
  text,
  json: { orderId, action, accepted: true, ...extra },
});

export const ORDER_ACTIONS: Record<string, Action> = {
  show: {
    options: [],
    async run(client, orderId) {
      const order = await client.getOrder(orderId);
      return { text: '', json: order as unknown as Record<string, unknown> };
    },
  },
  confirm: {
    options: ['external-code', 'created-at', 'preparation-time', 'reason', 'json-body'],
    async run(client, orderId, values) {
      const file = bodyFile(values);
      if (file) {
        await client.confirm(orderId, file as never);
        return done(orderId, 'confirm', `confirmed order ${orderId}`, { body: file });
      }
      const orderExternalCode = need(values, 'external-code', 'confirm', "CODE (your POS's own reference)");
      const preparationTime = number(
        values,
        'preparation-time',
        (n) => Number.isInteger(n) && n > 0,
        'a whole number of minutes above 0',
      );
      // Spec 4.7: createdAt is the order's creation time; the order says it when not given.
      const createdAt = isoDate(values, 'created-at') ?? (await client.getOrder(orderId)).createdAt;
      const body = {
        createdAt,
        orderExternalCode,
        ...(preparationTime !== undefined ? { preparationTime } : {}),
        ...(str(values, 'reason') !== undefined ? { reason: str(values, 'reason') } : {}),
      };
      await client.confirm(orderId, body);
      return done(orderId, 'confirm', `confirmed order ${orderId} as ${orderExternalCode} (CONFIRMED)`, { body });
    },
  },
  preparing: {
    options: [],
    async run(client, orderId) {
      await client.preparing(orderId);
      return done(orderId, 'preparing', `order ${orderId}: preparation started`);
    },
  },
  details: {
    options: ['preparation-start', 'json-body'],
    async run(client, orderId, values) {
      const body = (bodyFile(values) as { preparationStartDateTime: string } | undefined) ?? {
        preparationStartDateTime:
          isoDate(values, 'preparation-start') ?? need(values, 'preparation-start', 'details', 'ISO (a date-time)'),
      };
      await client.updateDetails(orderId, body);
      return done(orderId, 'details', `order ${orderId}: preparation starts at ${body.preparationStartDateTime}`, {
        body,
      });
    },
  },
  ready: {
    options: [],
    async run(client, orderId) {
      await client.readyForPickup(orderId);
      return done(orderId, 'ready', `order ${orderId} is ready for pickup (READY_FOR_PICKUP)`);
    },
  },
  'picked-up': {
    options: [],
    async run(client, orderId) {
      await client.pickedUp(orderId);
      return done(orderId, 'picked-up', `order ${orderId} picked up by the customer (PICKED_UP)`);
    },
  },
  dispatch: {
    options: [...TRACKING, 'json-body'],
    async run(client, orderId, values) {
      const file = bodyFile(values);
      const info = file ? undefined : trackingInfo(values);
      const body = file ?? (info ? { deliveryTrackingInfo: info } : undefined);
      await client.dispatch(orderId, body as never);
      return done(orderId, 'dispatch', `order ${orderId} is out for delivery (DISPATCHED)`, body ? { body } : {});
    },
  },
  delivered: {
    options: [],
    async run(client, orderId) {
      await client.delivered(orderId);
      return done(orderId, 'delivered', `order ${orderId} delivered (DELIVERED)`);
    },
  },
  cancel: {
    options: ['reason', 'code', 'mode', 'out-of-stock', 'invalid-item', 'json-body'],
    async run(client, orderId, values) {
      const file = bodyFile(values);
      let body = file;
      if (!body) {
        const reason = need(values, 'reason', 'cancel', 'TEXT (shown to the customer)');
        const code = cancellationCode(need(values, 'code', 'cancel', 'CODE'), 'cancel');
        const mode = str(values, 'mode') ?? 'MANUAL';
        if (mode !== 'AUTO' && mode !== 'MANUAL') {
          throw new UsageError(`pos orders cancel: --mode must be AUTO or MANUAL, got "${mode}"`);
        }
        const outOfStock = values['out-of-stock'] as string[] | undefined;
        const invalid = values['invalid-item'] as string[] | undefined;
        body = {
          reason,
          code,
          mode,
          ...(outOfStock ? { outOfStockItems: outOfStock } : {}),
          ...(invalid ? { invalidItems: invalid } : {}),
        };
      }
      await client.requestCancellation(orderId, body as never);
      return done(
        orderId,
        'cancel',
        `cancellation of order ${orderId} requested (CANCELLATION_REQUESTED); the platform answers with CANCELLED or CANCELLATION_REQUEST_DENIED`,
        { body },
      );
    },
  },
  'accept-cancellation': {
    options: [],
    async run(client, orderId) {
      await client.acceptCancellation(orderId);
      return done(
        orderId,
        'accept-cancellation',
        `accepted the customer's cancellation of order ${orderId} (CANCELLED)`,
      );
    },
  },
  'deny-cancellation': {
    options: ['reason', 'code', 'json-body'],
    async run(client, orderId, values) {
      const body = bodyFile(values) ?? {
        reason: need(values, 'reason', 'deny-cancellation', 'TEXT'),
        code: cancellationCode(need(values, 'code', 'deny-cancellation', 'CODE'), 'deny-cancellation'),
      };
      await client.denyCancellation(orderId, body as never);
      return done(
        orderId,
        'deny-cancellation',
        `denied the customer's cancellation of order ${orderId} (CANCELLED_DENIED); the order goes on`,
        { body },
      );
    },
  },
  'validate-code': {
    options: ['code'],
    async run(client, orderId, values) {
      const code = need(values, 'code', 'validate-code', "DELIVERY_CODE (the customer's code)");
      const answer = await client.validateCode(orderId, code);
      return {
        text: `code ${answer.deliveryCode} is valid for order ${answer.orderId}: hand the order over`,
        json: { ...answer, valid: true },
      };
    },
  },
  track: {
    options: [...TRACKING, 'json-body'],
    async run(client, orderId, values) {
      const file = bodyFile(values);
      let info: DeliveryTrackingInfo | undefined;
      if (file) {
        if (typeof file.deliveryTrackingInfo !== 'object' || file.deliveryTrackingInfo === null) {
          throw new UsageError('--json-body: the body of track needs a deliveryTrackingInfo object (spec 4.12)');
        }
        info = file.deliveryTrackingInfo as DeliveryTrackingInfo;
      } else {
        info = trackingInfo(values);
        if (!info) {
          throw new UsageError(
            'pos orders track needs --lat/--lng, --event-type, --eta-minutes, --courier or --json-body FILE',
          );
        }
      }
      await client.tracking(orderId, info);
      return done(orderId, 'track', `tracking of order ${orderId} sent`, { body: { deliveryTrackingInfo: info } });
    },
  },
  weigh: {
    options: ['line', 'label', 'json-body'],
    async run(client, orderId, values) {
      const file = bodyFile(values);
      const lines = file ? (file.items as ReturnType<typeof weighedLines>) : weighedLines(values);
      const answer = await client.weigh(orderId, lines);
      // D42: out of tolerance, the customer is asked: wait for the decision (or the deadline's default).
      const decided =
        answer.state === 'PENDING_APPROVAL'
          ? await client.waitForWeighingDecision(orderId, answer.weighingId)
          : undefined;
      // What the customer now pays: the lines weighed and the totals that followed (D38).
      const order = await client.getOrder(orderId);
      const weighed = lines.map((l) => {
        const item = order.items[l.index];
        return {
          index: l.index,
          name: item?.name,
          quantity: item?.quantity,
          orderedQuantity: item?.orderedQuantity,
          totalPrice: item?.totalPrice?.value,
          ...(item?.scaleLabel ? { scaleLabel: item.scaleLabel } : {}),
        };
      });
      const amount = order.total.orderAmount.value;
      const adjustment = order.weighingAdjustment?.value;
      const text = [
        ...(decided
          ? [
              `weighing ${answer.weighingId} was out of tolerance: the customer was asked until ${answer.deadline}`,
              `  decision: ${decided.decision} by ${decided.by}${decided.removedLines ? ` (lines removed: ${decided.removedLines.join(', ')})` : ''}`,
            ]
          : []),
        `${decided?.decision === 'REJECT' ? 'order (unchanged, weigh again)' : 'weighed order'} ${orderId}:`,
        ...weighed.map(
          (w) =>
            `  line ${w.index} ${w.name}: ${w.quantity} kg (ordered ${w.orderedQuantity ?? w.quantity} kg) = ${w.totalPrice === undefined ? '?' : money(w.totalPrice)}` +
            (w.scaleLabel ? ` [label ${w.scaleLabel}]` : ''),
        ),
        `  order amount ${money(amount)}${adjustment !== undefined ? `; weighing adjustment ${money(adjustment)} (the platform settles it)` : ''}`,
      ].join('\n');
      return done(orderId, 'weigh', text, {
        body: { items: lines },
        weighingId: answer.weighingId,
        state: decided?.state ?? answer.state,
        ...(decided ? { decision: decided.decision, by: decided.by } : {}),
        lines: weighed,
        orderAmount: amount,
        ...(adjustment !== undefined ? { weighingAdjustment: adjustment } : {}),
      });
    },
  },
};

/**
 * An order as a person checks it: its items with the chosen cut and options, then the fees,
 * discounts and total, so that the lines add up to the total, and how it is paid.
 */
function printOrder(io: Io, order: Order): void {
  const p = stdoutPaint(io);
  const total = order.total?.orderAmount;
  printFields(io, [
    ['id', p.bold(order.id)],
    ['displayId', order.displayId],
    ['type', `${order.type}${order.orderTiming ? ` ${order.orderTiming}` : ''}`],
    ['lastEvent', order.lastEvent],
    ['createdAt', order.createdAt],
    ['customer', order.customer?.name],
    ['total', total ? money(total.value, total.currency) : undefined],
  ]);
  const rows: Cell[][] = [];
  for (const i of order.items) {
    rows.push([
      i.id,
      i.name,
      // D38: a weighed line shows the weight and what was ordered.
      i.orderedQuantity !== undefined ? `${i.quantity} (ordered ${i.orderedQuantity})` : i.quantity,
      i.unit,
      i.totalPrice ? money(i.totalPrice.value) : undefined,
    ]);
    // D37: the chosen cut is the item's first option (free); other options may cost.
    for (const o of i.options ?? [])
      rows.push(['', `  + ${o.name}`, o.quantity, o.unit ?? '', money(o.totalPrice.value)]);
  }
  for (const fee of order.otherFees ?? []) rows.push(['', fee.name || fee.type, '', '', money(fee.price.value)]);
  for (const d of order.discounts ?? []) rows.push(['', `discount (${d.target})`, '', '', money(-d.amount.value)]);
  if (total) rows.push(['', 'TOTAL', '', '', money(total.value)]);
  printTable(io, ['ITEM', 'NAME', 'QTY', 'UNIT', 'TOTAL'], rows);
  const methods = order.payments?.methods ?? [];
  if (methods.length > 0) {
    io.stdout.write('\npayment:\n');
    for (const m of methods) {
      const change = m.changeFor !== undefined ? `, change for ${money(m.changeFor)}` : '';
      io.stdout.write(
        `  ${m.type} ${m.method}${m.brand ? ` ${m.brand}` : ''} ${money(m.value, m.currency)}${change}\n`,
      );
    }
  }
}

/** `cleaver pos orders ACTION ORDER_ID`; `values` come from `cleaver pos`'s parse. */
export async function posOrdersCommand(io: Io, positionals: string[], values: Values): Promise<number> {
  const [actionName, ...rest] = positionals;
  if (actionName === undefined) {
    throw new UsageError(`pos orders needs an action: ${Object.keys(ORDER_ACTIONS).join(', ')}`);
  }
  const action = ORDER_ACTIONS[actionName];
  if (!action) {
    throw new UsageError(`unknown action "pos orders ${actionName}": one of ${Object.keys(ORDER_ACTIONS).join(', ')}`);
  }
  const orderId = requireUuid(rest, 0, 'ORDER_ID');
  if (rest.length > 1)
    throw new UsageError(`unexpected argument "${rest[1]}" after "pos orders ${actionName} ${orderId}"`);
  const given = (Object.keys(ORDERS_OPTIONS) as OrderOption[]).filter((name) => values[name] !== undefined);
  const foreign = given.find((name) => !action.options.includes(name));
  if (foreign) throw new UsageError(`--${foreign} does not apply to pos orders ${actionName}`);
  if (values['json-body'] !== undefined && given.length > 1) {
    throw new UsageError(`--json-body replaces the other options of pos orders ${actionName}: give one or the other`);
  }
  const outcome = await action.run(posClient(values, io.env), orderId, values, io);
  if (values.json === true) printJson(io, outcome.json);
  else if (actionName === 'show') printOrder(io, outcome.json as unknown as Order);
  else io.stdout.write(`${stdoutPaint(io).green('✓')} ${outcome.text}\n`);
  return EXIT.OK;
}
