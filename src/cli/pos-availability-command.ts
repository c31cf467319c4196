// `cleaver pos items pause|resume|stock` and `cleaver pos store pause|resume` (D43): what is in
// the case, from the counter, through @cleaver/pos-client.
import type { ItemAvailability } from '@cleaver/pos-client';
import { EXIT, type Io, noMoreArguments, posClient, printJson, printTable, UsageError } from './common.js';

export const AVAILABILITY_HELP = `  cleaver pos items pause PRODUCT [--reason OUT_OF_STOCK|QUALITY|NOT_TODAY|OTHER] [--until ISO]
                                                  pause a product (by id or POS code) until a time or
                                                  until resumed (D43)
  cleaver pos items resume PRODUCT                resume a paused product
  cleaver pos items stock PRODUCT QUANTITY        count its stock (kg for KG, units for UN)
  cleaver pos store pause --until ISO [--reason TEXT]
                                                  pause the store: no orders until then (D43)
  cleaver pos store resume                        end the store's pause now`;

type Values = { reason?: string; until?: string; json?: boolean; url?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const product = (ref: string) => (UUID.test(ref) ? { productId: ref } : { pdvId: ref });

function printItems(io: Io, items: ItemAvailability[], json: boolean) {
  if (json) return printJson(io, items);
  printTable(
    io,
    ['PRODUCT', 'POS CODE', 'AVAILABLE', 'REASON', 'UNTIL', 'STOCK'],
    items.map((i) => [i.productId, i.pdvId, i.available ? 'yes' : 'no', i.reason, i.until, i.stock?.quantity]),
  );
}

export async function posItemsCommand(io: Io, positionals: string[], values: Values): Promise<number> {
  const [, action, ref, quantity] = positionals;
  if (!ref) throw new UsageError(`pos items ${action ?? 'pause|resume|stock'} needs PRODUCT (an id or a POS code)`);
  const client = posClient(values, io.env);
  const json = values.json === true;
  switch (action) {
    case 'pause':
      noMoreArguments(positionals, 3, 'pos items pause');
      printItems(
        io,
        await client.setAvailability([
          {
            ...product(ref),
            available: false,
            ...(values.reason ? { reason: values.reason as 'OTHER' } : {}),
            ...(values.until ? { until: values.until } : {}),
          },
        ]),
        json,
      );
      return EXIT.OK;
    case 'resume':
      noMoreArguments(positionals, 3, 'pos items resume');
      printItems(io, await client.setAvailability([{ ...product(ref), available: true }]), json);
      return EXIT.OK;
    case 'stock': {
      noMoreArguments(positionals, 4, 'pos items stock');
      const q = Number(quantity);
      if (quantity === undefined || !Number.isFinite(q))
        throw new UsageError('pos items stock needs QUANTITY (a number)');
      printItems(
        io,
        await client.setAvailability([{ ...product(ref), available: true, stock: { quantity: q } }]),
        json,
      );
      return EXIT.OK;
    }
    default:
      throw new UsageError(
        action ? `unknown subcommand "pos items ${action}"` : 'pos items needs pause, resume or stock',
      );
  }
}

export async function posStoreCommand(io: Io, positionals: string[], values: Values): Promise<number> {
  const [, action] = positionals;
  const client = posClient(values, io.env);
  noMoreArguments(positionals, 2, `pos store ${action ?? ''}`.trim());
  let status: Awaited<ReturnType<typeof client.resumeStore>>;
  if (action === 'pause') {
    if (!values.until) throw new UsageError('pos store pause needs --until ISO');
    status = await client.pauseStore({ reason: values.reason ?? 'Pausa', until: values.until });
  } else if (action === 'resume') {
    status = await client.resumeStore();
  } else {
    throw new UsageError(action ? `unknown subcommand "pos store ${action}"` : 'pos store needs pause or resume');
  }
  if (values.json === true) printJson(io, status);
  else
    io.stdout.write(`${status.status}${status.pause ? ` until ${status.pause.until} (${status.pause.reason})` : ''}\n`);
  return EXIT.OK;
}
