// `cleaver pos …`: what a POS developer does by hand while integrating, through @cleaver/pos-client
// (so the command behaves exactly like the library: token reuse, 401 renewal, backoff).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type EventRecord, type MerchantUpdateRequest, runEventLoop, type SyncStatus } from '@cleaver/pos-client';
import {
  EXIT,
  flagOptions,
  type Io,
  noMoreArguments,
  POS_HELP,
  POS_OPTIONS,
  parse,
  posClient,
  printFields,
  printJson,
  printRecord,
  printTable,
  requirePositional,
  requireUuid,
  UsageError,
  valueOptions,
} from './common.js';
import { AVAILABILITY_HELP, posItemsCommand, posStoreCommand } from './pos-availability-command.js';
import { HOMOLOGATION_HELP, posHomologationCommand } from './pos-homologation-command.js';
import { ORDER_ACTIONS, ORDERS_COMMAND_HELP, ORDERS_OPTIONS, posOrdersCommand } from './pos-order-commands.js';
import { posRequestsCommand, posWebhooksCommand, REQUESTS_HELP, REQUESTS_OPTIONS } from './pos-requests-command.js';
import { posStatementsCommand, STATEMENTS_HELP, STATEMENTS_OPTIONS } from './pos-statements-command.js';
import { SPINNER } from './terminal.js';

export const POS_COMMAND_HELP = `Usage:
  cleaver pos token                               get an access token (spec 4.1)
  cleaver pos onboard --webhook-url URL [--catalog-url URL --catalog-api-key KEY]
                                                  register integration settings (spec 4.2)
  cleaver pos catalog push FILE [--wait] [--timeout SECONDS] [--interval SECONDS]
                                                  upload a merchantUpdate body (spec 4.3); with --wait,
                                                  follow merchantStatus until SUCCESS or FAIL (never resent)
  cleaver pos catalog status                      the last sync status (spec 4.4)
  cleaver pos merchant                            the merchant record with categories and products (4.5)
  cleaver pos orders ACTION ORDER_ID [options]    read or act on an order (spec 4.6–4.12, D6); ACTION is
                                                  ${Object.keys(ORDER_ACTIONS).join(', ')}
                                                  (cleaver pos orders --help)
  cleaver pos order ORDER_ID                      the order as JSON (same as pos orders show ORDER_ID --json)
  cleaver pos events tail [--ack] [--once] [--type EVENT_TYPE …] [--interval SECONDS]
                                                  print pending events as they arrive; --ack acknowledges
                                                  each batch after printing it (spec 4.13); --once polls
                                                  one time and exits
${AVAILABILITY_HELP}
${REQUESTS_HELP}
${STATEMENTS_HELP}
${HOMOLOGATION_HELP}

${POS_HELP}`;

function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** `--NAME SECONDS` (or `fallbackSeconds` when absent) in milliseconds: both paths are converted. */
function seconds(value: string | undefined, name: string, fallbackSeconds: number): number {
  if (value === undefined) return fallbackSeconds * 1000;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number of seconds`);
  return n * 1000;
}

function printStatus(io: Io, status: SyncStatus): void {
  printFields(io, [
    ['status', status.status],
    ['lastRead', status.lastRead],
  ]);
  io.stdout.write(`moreInfo:\n${status.moreInfo ?? '(nothing to add)'}\n`);
}

async function catalogPush(io: Io, args: string[], values: Record<string, unknown>): Promise<number> {
  const file = requirePositional(args, 0, 'FILE');
  noMoreArguments(args, 1, `pos catalog push ${file}`);
  const body = readJsonFile(file) as MerchantUpdateRequest;
  const json = values.json === true;
  const wait = values.wait === true;
  const client = posClient(values, io.env);
  const live = !json && io.stdout.isTTY === true;
  let line = '';
  let frame = 0;
  let started = Date.now();
  // On a terminal the status line is redrawn in place; elsewhere one line per status read.
  const ticker = live
    ? setInterval(() => {
        if (!line) return;
        frame++;
        io.stdout.write(
          `\r\x1b[2K${SPINNER[frame % SPINNER.length]} ${line} ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
      }, 120)
    : undefined;
  try {
    const result = await client.uploadCatalog(body, {
      wait,
      timeoutMs: seconds(values.timeout as string | undefined, 'timeout', 300),
      intervalMs: seconds(values.interval as string | undefined, 'interval', 2),
      signal: io.signal,
      onProgress: (status, elapsed) => {
        if (json) return;
        line = `catalog sync ${status.status}`;
        if (!live) io.stdout.write(`${line} (${(elapsed / 1000).toFixed(1)} s)\n`);
      },
    });
    started = Date.now();
    if (live) io.stdout.write('\r\x1b[2K');
    if (!result) {
      if (json) printJson(io, { accepted: true });
      else io.stdout.write('catalog accepted (204) and queued; follow it with "cleaver pos catalog status"\n');
      return EXIT.OK;
    }
    if (json) printJson(io, result);
    else printStatus(io, result);
    return result.status === 'SUCCESS' ? EXIT.OK : EXIT.SYNC_FAILED;
  } finally {
    if (ticker) clearInterval(ticker);
  }
}

function eventRow(e: EventRecord): Array<string | undefined> {
  return [e.createdAt, e.eventType, e.orderId, e.metadata ? JSON.stringify(e.metadata) : undefined];
}

async function eventsTail(io: Io, values: Record<string, unknown>): Promise<number> {
  const client = posClient(values, io.env);
  const json = values.json === true;
  const eventTypes = values.type as EventRecord['eventType'][] | undefined;
  const intervalMs = seconds(values.interval as string | undefined, 'interval', 5);
  const print = (events: EventRecord[]) => {
    for (const e of events) {
      if (json) io.stdout.write(`${JSON.stringify(e)}\n`);
      else
        io.stdout.write(
          `${eventRow(e)
            .map((c) => c ?? '')
            .join('  ')
            .trimEnd()}\n`,
        );
    }
  };
  if (!json) io.stdout.write(`CREATED_AT  EVENT_TYPE  ORDER_ID  METADATA\n`);

  if (values.once) {
    const events = await client.pollEvents({ eventTypes });
    print(events);
    if (values.ack && events.length > 0) await client.acknowledgeEvents(events);
    if (!json) io.stderr.write(`${events.length} event(s)${values.ack && events.length ? ', acknowledged' : ''}\n`);
    return EXIT.OK;
  }

  const signal = io.signal ?? new AbortController().signal;
  if (values.ack) {
    // Printing is the processing here; the loop acknowledges each batch after it is printed.
    await runEventLoop(
      client,
      async (event) => {
        print([event]);
      },
      {
        signal,
        intervalMs,
        eventTypes,
        onError: (error, ctx) => {
          io.stderr.write(`cleaver: ${ctx.stage} failed: ${(error as Error).message}; continuing\n`);
        },
      },
    );
    return EXIT.OK;
  }

  // Without --ack events stay pending and come back in every poll: print each occurrence once.
  const seen = new Set<string>();
  while (!signal.aborted) {
    try {
      const fresh = (await client.pollEvents({ eventTypes, signal })).filter((e) => {
        const key = `${e.orderId}|${e.eventType}|${e.createdAt}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      print(fresh);
    } catch (error) {
      if (signal.aborted) break;
      io.stderr.write(`cleaver: poll failed: ${(error as Error).message}; continuing\n`);
    }
    // Ctrl-C ends the pause early (its AbortError is no failure) and then the loop.
    await sleep(intervalMs, undefined, { signal }).catch(() => undefined);
  }
  return EXIT.OK;
}

/** Options of the other `pos` subcommands (token, onboard, catalog, events). */
const OTHER_POS_OPTIONS = [
  'webhook-url',
  'catalog-url',
  'catalog-api-key',
  'wait',
  'timeout',
  'interval',
  'ack',
  'once',
  'type',
  'duration',
  'timings',
  'until',
  ...(Object.keys(REQUESTS_OPTIONS) as Array<keyof typeof REQUESTS_OPTIONS>),
] as const;

export async function posCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...POS_OPTIONS,
    ...valueOptions(
      'webhook-url',
      'catalog-url',
      'catalog-api-key',
      'timeout',
      'interval',
      'duration',
      'timings',
      'until',
    ),
    ...flagOptions('wait', 'ack', 'once'),
    type: { type: 'string', multiple: true },
    ...REQUESTS_OPTIONS,
    ...STATEMENTS_OPTIONS,
    ...ORDERS_OPTIONS,
  });
  const [sub, sub2, ...rest] = positionals;
  if (values.help) {
    io.stdout.write(`${sub === 'orders' ? ORDERS_COMMAND_HELP : POS_COMMAND_HELP}\n`);
    return EXIT.OK;
  }
  if (sub === 'orders') {
    const other = OTHER_POS_OPTIONS.find((name) => values[name] !== undefined);
    if (other) throw new UsageError(`--${other} does not apply to "pos orders"`);
    return posOrdersCommand(io, positionals.slice(1), values);
  }
  // D43: --reason is shared with "pos orders"; --until is theirs alone.
  if (sub === 'items') return posItemsCommand(io, positionals, values);
  if (sub === 'store') return posStoreCommand(io, positionals, values);
  if (values.until !== undefined)
    throw new UsageError('--until applies to "pos items pause" and "pos store pause" only');
  const orderOption = Object.keys(ORDERS_OPTIONS).find((name) => values[name as keyof typeof values] !== undefined);
  if (orderOption) throw new UsageError(`--${orderOption} applies to "pos orders" only`);
  const noMore = (count: number, command: string) => noMoreArguments(positionals, count, command);
  if (sub === 'statements') {
    const other = OTHER_POS_OPTIONS.find((name) => values[name] !== undefined && name !== 'limit');
    if (other) throw new UsageError(`--${other} does not apply to "pos statements"`);
    return posStatementsCommand(io, positionals.slice(1), values);
  }
  const statementsOption = Object.keys(STATEMENTS_OPTIONS).find(
    (name) => values[name as keyof typeof values] !== undefined,
  );
  if (statementsOption) throw new UsageError(`--${statementsOption} applies to "pos statements" only`);
  if (sub === 'requests' || sub === 'webhooks') {
    noMore(1, `pos ${sub}`);
    const allowed: string[] = sub === 'requests' ? Object.keys(REQUESTS_OPTIONS) : ['limit'];
    const other = OTHER_POS_OPTIONS.find((name) => values[name] !== undefined && !allowed.includes(name));
    if (other) throw new UsageError(`--${other} does not apply to "pos ${sub}"`);
    return sub === 'requests' ? posRequestsCommand(io, values) : posWebhooksCommand(io, values);
  }
  const requestsOption = Object.keys(REQUESTS_OPTIONS).find(
    (name) => values[name as keyof typeof values] !== undefined,
  );
  if (requestsOption) throw new UsageError(`--${requestsOption} applies to "pos requests" and "pos webhooks" only`);
  const json = values.json === true;
  // Words after the last argument a subcommand takes are mistakes (e.g. "pos order confirm ID").
  switch (sub) {
    case 'token': {
      noMore(1, 'pos token');
      const token = await posClient(values, io.env).token();
      if (json) printJson(io, { access_token: token.accessToken, expires_at: token.expiresAt.toISOString() });
      else io.stdout.write(`${token.accessToken}\n`);
      return EXIT.OK;
    }
    case 'onboard': {
      noMore(1, 'pos onboard');
      if (!values['webhook-url']) throw new UsageError('pos onboard needs --webhook-url');
      if ((values['catalog-url'] === undefined) !== (values['catalog-api-key'] === undefined)) {
        throw new UsageError('--catalog-url and --catalog-api-key go together');
      }
      const config = await posClient(values, io.env).onboard({
        ordersWebhookURL: values['webhook-url'],
        ...(values['catalog-url']
          ? { getMerchantURL: { baseURL: values['catalog-url'], apiKey: values['catalog-api-key'] as string } }
          : {}),
      });
      printRecord(io, json, config, [
        ['ordersWebhookURL', config.ordersWebhookURL],
        ['getMerchantURL', config.getMerchantURL ? config.getMerchantURL.baseURL : null],
      ]);
      return EXIT.OK;
    }
    case 'catalog':
      if (sub2 === 'push') return catalogPush(io, rest, values);
      if (sub2 === 'status') {
        noMore(2, 'pos catalog status');
        const status = await posClient(values, io.env).merchantStatus();
        if (json) printJson(io, status);
        else printStatus(io, status);
        return EXIT.OK;
      }
      throw new UsageError(sub2 ? `unknown subcommand "pos catalog ${sub2}"` : 'pos catalog needs push or status');
    case 'merchant': {
      noMore(1, 'pos merchant');
      const merchant = await posClient(values, io.env).getMerchant();
      if (json) printJson(io, merchant);
      else {
        printFields(io, [
          ['id', merchant.id],
          ['status', merchant.status],
          ['lastUpdate', merchant.lastUpdate],
        ]);
        printTable(
          io,
          ['POS CODE', 'NAME', 'PRICE', 'UNIT', 'STATUS'],
          merchant.products.map((p) => [p.pdv_external_id, p.name, p.price, p.unit, p.status]),
        );
      }
      return EXIT.OK;
    }
    case 'order': {
      const hint = sub2 && sub2 in ORDER_ACTIONS ? ` (to act on an order: cleaver pos orders ${sub2} ORDER_ID)` : '';
      const orderId = requireUuid(positionals, 1, 'ORDER_ID', hint);
      noMore(2, `pos order ${orderId}`);
      printJson(io, await posClient(values, io.env).getOrder(orderId));
      return EXIT.OK;
    }
    case 'homologation':
      return posHomologationCommand(io, positionals.slice(1), values);
    case 'events':
      if (sub2 === 'tail') {
        noMore(2, 'pos events tail');
        return eventsTail(io, values);
      }
      throw new UsageError(sub2 ? `unknown subcommand "pos events ${sub2}"` : 'pos events needs tail');
    default:
      throw new UsageError(sub ? `unknown subcommand "pos ${sub}"` : 'pos needs a subcommand');
  }
}
