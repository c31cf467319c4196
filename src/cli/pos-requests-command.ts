// `cleaver pos requests` and `cleaver pos webhooks`: the key's request log and its
// merchant's webhook endpoint, read with the POS's own credentials (GET /v1/developer/requests,
// GET /v1/developer/webhooks), as a table or, with --json, as the API's documents.
import { EXIT, type Io, posClient, printFields, printJson, printTable, UsageError } from './common.js';

export const REQUESTS_HELP = `  cleaver pos requests [--failed] [--status CODE] [--limit N] [--before CURSOR] [--bodies]
                                                  this key's last requests (1,000 at most, 24 h), newest
                                                  first: time, method, path, status, ms, error, request id;
                                                  --bodies prints the redacted body of each failed request
  cleaver pos webhooks [--limit N]                the merchant's webhook endpoint (healthy, failing since…)
                                                  and its latest attempts`;

/** Options of these two commands (none applies to the other pos subcommands). */
export const REQUESTS_OPTIONS = {
  failed: { type: 'boolean' },
  status: { type: 'string' },
  limit: { type: 'string' },
  before: { type: 'string' },
  bodies: { type: 'boolean' },
} as const;

function integer(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

export async function posRequestsCommand(io: Io, values: Record<string, unknown>): Promise<number> {
  const before = values.before as string | undefined;
  if (before !== undefined && !/^[0-9]{1,18}$/.test(before)) {
    throw new UsageError('--before takes the "next" cursor a previous page printed');
  }
  const page = await posClient(values, io.env).listRequests({
    limit: integer(values.limit, 'limit', 1, 1000),
    status: integer(values.status, 'status', 100, 599),
    failed: values.failed === true ? true : undefined,
    before,
  });
  if (values.json === true) {
    printJson(io, page);
    return EXIT.OK;
  }
  if (page.items.length === 0) io.stdout.write('no requests in the log (the last 24 hours)\n');
  else
    printTable(
      io,
      ['TIME', 'METHOD', 'STATUS', 'MS', 'PATH', 'ERROR', 'REQUEST ID'],
      page.items.map((r) => [r.at, r.method, r.status, r.durationMs, r.path, r.errorTitle, r.requestId]),
    );
  // D39: what the service forgave (an acknowledgment naming another type), to fix all the same.
  for (const r of page.items.filter((x) => x.warning)) {
    io.stdout.write(`\nwarning ${r.requestId} ${r.method} ${r.path} → ${r.status}: ${r.warning}\n`);
  }
  if (values.bodies === true) {
    for (const r of page.items.filter((x) => x.requestBody !== null)) {
      io.stdout.write(
        `\n${r.requestId} ${r.method} ${r.path} → ${r.status}${r.requestBodyTruncated ? ' (body cut at 2 KB)' : ''}\n`,
      );
      io.stdout.write(`${r.requestBody}\n`);
    }
  }
  if (page.next) io.stdout.write(`\nolder requests: cleaver pos requests --before ${page.next}\n`);
  return EXIT.OK;
}

export async function posWebhooksCommand(io: Io, values: Record<string, unknown>): Promise<number> {
  const report = await posClient(values, io.env).webhookEndpoint(integer(values.limit, 'limit', 1, 100));
  if (values.json === true) {
    printJson(io, report);
    return EXIT.OK;
  }
  const e = report.endpoint;
  printFields(io, [
    ['url', e.url],
    ['state', e.state],
    ['failingSince', e.failingSince],
    ['lastError', e.lastError],
    ['lastSuccessAt', e.lastSuccessAt],
    ['lastAttemptAt', e.lastAttemptAt],
    ...(e.disabledAt
      ? ([
          ['disabledAt', e.disabledAt],
          ['disabledReason', e.disabledReason],
        ] as Array<[string, string | null]>)
      : []),
  ]);
  if (report.attempts.length === 0) io.stdout.write('no webhook attempts yet\n');
  else
    printTable(
      io,
      ['TIME', 'EVENT', 'ORDER', 'ATTEMPT', 'ANSWER', 'MS', 'DELIVERY'],
      report.attempts.map((a) => [
        a.at,
        a.eventType,
        a.orderId,
        a.attemptNo,
        a.statusCode ?? a.error,
        a.durationMs,
        a.deliveryStatus,
      ]),
    );
  return EXIT.OK;
}
