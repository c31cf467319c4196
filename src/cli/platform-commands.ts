// `cleaver platform tail`: the platform feed (D36) as the marketplace's systems read it, one line
// per item, following `next` with the long poll until interrupted (or one page with --once). A
// follower outlives the service: when it stops answering (a restart, a deploy) the tail waits,
// tries again with a growing pause and reads on from its cursor, as a NATS consumer does.
import { CleaverApiError, CleaverAuthError, CleaverNetworkError, type FeedItem } from '@cleaver/pos-client';
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
  reportError,
  UsageError,
  valueOptions,
} from './common.js';

export const PLATFORM_HELP = `Usage:
  cleaver platform tail [--after CURSOR] [--kinds order,merchant,catalog,webhook,settlement] [--merchant ID]
                        [--once] [--json]

  Prints the platform feed (docs/platform-feed.md): every order event and every change of a
  merchant, a catalog or a webhook endpoint, oldest first, then waits for new items (the feed's
  long poll) until interrupted. --once prints one page and the cursor to go on from. When the
  service stops answering (a restart), it says so on stderr, tries again with a growing pause
  (up to 30 s) and reads on from its cursor: nothing is missed or printed twice.

  --after    a cursor (an item's, or the "next" printed by --once); default: the oldest item kept
  --json     one item per line as JSON (JSON lines), for scripts

The token (--admin-token, CLEAVER_ADMIN_TOKEN) is a personal token of the platform role, or any
operator's.

${ADMIN_HELP}`;

const KINDS = ['order', 'merchant', 'catalog', 'webhook', 'settlement'] as const;
/** The long poll's wait: under the client's 30 s per-attempt timeout. */
const WAIT_SEC = 25;
/** The pause after the first failed read, doubled after each next one up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;

/** A read worth trying again: no answer, or the service restarting or overloaded; not a refusal. */
export function transientFeedError(error: unknown): boolean {
  if (error instanceof CleaverNetworkError) return true;
  if (error instanceof CleaverAuthError) return false;
  return error instanceof CleaverApiError && (error.status >= 500 || error.status === 429);
}

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

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
  try {
    return await platform(args, io);
  } catch (error) {
    return reportError(io, error, args.includes('--json'), { jsonLines: true });
  }
}

async function platform(args: string[], io: Io): Promise<number> {
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
  let failures = 0;
  while (!signal.aborted) {
    try {
      const page = await client.readFeed({ ...query, after: cursor, wait: WAIT_SEC, signal });
      if (failures > 0) io.stderr.write('cleaver: the feed answers again; reading on\n');
      failures = 0;
      print(page.items);
      cursor = page.next;
    } catch (error) {
      if (signal.aborted) break;
      if (!transientFeedError(error)) throw error;
      // Jittered, so that many followers of one restarted service do not all come back at once.
      const ms = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures) * (0.75 + Math.random() / 2);
      failures += 1;
      const reason = error instanceof Error ? error.message : String(error);
      io.stderr.write(
        `cleaver: the feed does not answer (${reason}); trying again in ${(ms / 1000).toFixed(1)} s${cursor ? ` from --after ${cursor}` : ''}\n`,
      );
      await pause(ms, signal);
    }
  }
  if (!json && cursor) io.stderr.write(`stopped; go on with --after ${cursor}\n`);
  return EXIT.OK;
}
