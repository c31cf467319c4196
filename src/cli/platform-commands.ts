// `cleaver platform tail`: the platform feed (D36) as the marketplace's systems read it, one line
// per item, following `next` with the long poll until interrupted (or one page with --once).
import type { FeedItem } from '@cleaver/pos-client';
import {
  ADMIN_HELP,
  ADMIN_OPTIONS,
  EXIT,
  flagOptions,
  type Io,
  noMoreArguments,
  operatorClient,
  parse,
  printTable,
  UsageError,
  valueOptions,
} from './common.js';

export const PLATFORM_HELP = `Usage:
  cleaver platform tail [--after CURSOR] [--kinds order,merchant,catalog,webhook,settlement] [--merchant ID]
                        [--once] [--json]

  Prints the platform feed (docs/platform-feed.md): every order event and every change of a
  merchant, a catalog or a webhook endpoint, oldest first, then waits for new items (the feed's
  long poll) until interrupted. --once prints one page and the cursor to go on from.

  --after    a cursor (an item's, or the "next" printed by --once); default: the oldest item kept
  --json     one item per line as JSON (JSON lines), for scripts

The token (--admin-token, CLEAVER_ADMIN_TOKEN) is a personal token of the platform role, or any
operator's.

${ADMIN_HELP}`;

const KINDS = ['order', 'merchant', 'catalog', 'webhook', 'settlement'] as const;
/** The long poll's wait: under the client's 30 s per-attempt timeout. */
const WAIT_SEC = 25;

function kindsOf(value: string | undefined): FeedItem['kind'][] | undefined {
  if (value === undefined) return undefined;
  const kinds = value.split(',').map((k) => k.trim());
  for (const k of kinds) {
    if (!(KINDS as readonly string[]).includes(k)) throw new UsageError(`--kinds takes ${KINDS.join(', ')}`);
  }
  return kinds as FeedItem['kind'][];
}

const row = (i: FeedItem) => [
  i.cursor,
  i.occurredAt,
  i.kind,
  i.type,
  i.merchantId,
  i.orderId ?? '',
  JSON.stringify(i.data),
];
const COLUMNS = ['CURSOR', 'OCCURRED_AT', 'KIND', 'TYPE', 'MERCHANT_ID', 'ORDER_ID', 'DATA'];

export async function platformCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...ADMIN_OPTIONS,
    ...valueOptions('after', 'kinds', 'merchant'),
    ...flagOptions('once'),
  });
  if (values.help || positionals.length === 0) {
    io.stdout.write(`${PLATFORM_HELP}\n`);
    return values.help ? EXIT.OK : EXIT.USAGE;
  }
  if (positionals[0] !== 'tail') throw new UsageError(`unknown subcommand "platform ${positionals[0]}"`);
  noMoreArguments(positionals, 1, 'platform tail');
  const after = values.after as string | undefined;
  if (after !== undefined && !/^[0-9]{1,18}$/.test(after)) throw new UsageError('--after must be a feed cursor');
  const client = operatorClient(values, io.env);
  const json = values.json === true;
  const query = { kinds: kindsOf(values.kinds as string | undefined), merchantId: values.merchant as string };
  const print = (items: FeedItem[]) => {
    for (const i of items) {
      if (json) io.stdout.write(`${JSON.stringify(i)}\n`);
      else io.stdout.write(`${row(i).join('  ')}\n`);
    }
  };

  if (values.once) {
    const page = await client.readFeed({ ...query, after });
    if (json) print(page.items);
    else printTable(io, COLUMNS, page.items.map(row));
    if (!json) io.stderr.write(`${page.items.length} item(s); go on with --after ${page.next}\n`);
    return EXIT.OK;
  }

  const signal = io.signal ?? new AbortController().signal;
  if (!json) io.stdout.write(`${COLUMNS.join('  ')}\n`);
  let cursor = after;
  while (!signal.aborted) {
    try {
      const page = await client.readFeed({ ...query, after: cursor, wait: WAIT_SEC, signal });
      print(page.items);
      cursor = page.next;
    } catch (error) {
      if (signal.aborted) break;
      throw error;
    }
  }
  if (!json && cursor) io.stderr.write(`stopped; go on with --after ${cursor}\n`);
  return EXIT.OK;
}
