// `cleaver sandbox od-pos`: a small Open Delivery POS, to try D29 end to end. It serves its menu
// at GET /v1/merchant (Open Delivery `Merchant`, X-API-KEY, ETag / If-None-Match, Cache-Control
// from the TTL), registers itself with PUT /v1/merchantOnboarding (getMerchantURL = itself, and
// its /v1/orderUpdate as the order webhook), and tells the platform its menu changed with
// POST /v1/merchantUpdate, then prints the outcome the platform reports in merchantStatus.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CatalogSyncTimeoutError,
  CleaverApiError,
  CleaverAuthError,
  type PosClient,
  type SyncStatus,
} from '@cleaver/pos-client';
import type { OdMerchant, OdMerchantUpdate } from '../modules/opendelivery/index.js';
import { EXIT, type Io, POS_HELP, parse, posClient, UsageError } from './common.js';
import { odButcherMenu } from './od-pos-menu.js';

export const OD_POS_HELP = `Usage:
  cleaver sandbox od-pos [--port PORT] [--host HOST] [--change-every SECONDS] [--once] [--json]
      run a small Open Delivery POS for the merchant of the POS credentials: it serves a butcher
      shop's menu as an Open Delivery Merchant at GET /v1/merchant, registers itself
      (getMerchantURL) with PUT /v1/merchantOnboarding, notifies the platform with
      POST /v1/merchantUpdate (empty body: "pull my menu") and prints the sync's outcome.
      --change-every N  every N seconds change the price of picanha and notify again
      --once            exit after the first outcome (exit code 4 when it is FAIL)
      --port PORT       where the POS listens (default 0: a free port)
      --host HOST       default 127.0.0.1; the platform must reach it (in production only
                        public https addresses are pulled)

${POS_HELP}`;

export interface OdPosServer {
  url: string;
  apiKey: string;
  /** Replaces the menu served from now on (a new ETag with it). */
  setMenu(menu: OdMerchant): void;
  /** What the POS was asked, oldest first. */
  readonly log: Array<{ method: string; path: string; status: number }>;
  close(): Promise<void>;
}

/** The Open Delivery endpoint of the POS; order webhooks are accepted and reported too. */
export async function startOdPos(options: {
  menu: OdMerchant;
  apiKey?: string;
  host?: string;
  port?: number;
  onRequest?: (entry: { method: string; path: string; status: number; body?: unknown }) => void;
}): Promise<OdPosServer> {
  const apiKey = options.apiKey ?? randomBytes(16).toString('hex');
  let body = '';
  let etag = '';
  let ttl = 600;
  const setMenu = (menu: OdMerchant) => {
    body = JSON.stringify(menu);
    etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
    ttl = menu.TTL;
  };
  setMenu(options.menu);
  const log: OdPosServer['log'] = [];
  const answer = (req: IncomingMessage, res: ServerResponse, status: number, payload?: string, extra?: unknown) => {
    const [path = '/'] = (req.url ?? '/').split('?'); // split always gives a first part
    const entry = { method: req.method ?? 'GET', path, status };
    log.push(entry);
    options.onRequest?.({ ...entry, ...(extra === undefined ? {} : { body: extra }) });
    res.statusCode = status;
    res.end(payload);
  };

  const server = createServer((req, res) => {
    const [path = '/'] = (req.url ?? '/').split('?'); // split always gives a first part
    if (req.method === 'GET' && path === '/v1/merchant') {
      if (req.headers['x-api-key'] !== apiKey) {
        res.setHeader('content-type', 'application/json');
        return answer(req, res, 401, JSON.stringify({ title: 'Invalid X-API-KEY', status: 401 }));
      }
      res.setHeader('etag', etag);
      res.setHeader('cache-control', `max-age=${ttl}`);
      if (req.headers['if-none-match'] === etag) return answer(req, res, 304);
      res.setHeader('content-type', 'application/json');
      return answer(req, res, 200, body);
    }
    if (req.method === 'POST' && path === '/v1/orderUpdate') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        let event: unknown;
        try {
          event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          event = undefined;
        }
        answer(req, res, 204, undefined, event);
      });
      return;
    }
    res.setHeader('content-type', 'application/json');
    answer(req, res, 404, JSON.stringify({ title: 'Not found', status: 404 }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    apiKey,
    setMenu,
    log,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** POST /v1/merchantUpdate (Open Delivery's notification; an empty body asks for a pull). */
export async function notifyMerchantUpdate(pos: PosClient, body?: OdMerchantUpdate): Promise<void> {
  const { accessToken } = await pos.token();
  const response = await fetch(`${pos.baseUrl}/v1/merchantUpdate`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status === 204) return;
  const problem = (await response.json().catch(() => ({}))) as { title?: string };
  const ErrorClass = response.status === 401 || response.status === 403 ? CleaverAuthError : CleaverApiError;
  throw new ErrorClass(response.status, problem.title ?? response.statusText, 'POST', '/v1/merchantUpdate', problem);
}

/** Polls merchantStatus until the sync is no longer PROCESSING. */
export async function waitForSync(
  pos: PosClient,
  options: { timeoutMs?: number; intervalMs?: number; signal?: AbortSignal } = {},
): Promise<SyncStatus> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = Date.now();
  for (;;) {
    const status = await pos.merchantStatus(pos.clientId, options.signal);
    if (status.status !== 'PROCESSING') return status;
    if (Date.now() - started >= timeoutMs) throw new CatalogSyncTimeoutError(timeoutMs, status);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
}

/** Registers the POS (getMerchantURL and order webhook) and asks for a pull of its menu. */
export async function publishThroughOdPos(
  pos: PosClient,
  server: OdPosServer,
  signal?: AbortSignal,
): Promise<SyncStatus> {
  await pos.onboard({ ordersWebhookURL: server.url, getMerchantURL: { baseURL: server.url, apiKey: server.apiKey } });
  await notifyMerchantUpdate(pos);
  return waitForSync(pos, { signal });
}

function positiveSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError('--change-every must be a positive number of seconds');
  return n;
}

export async function odPosCommand(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    url: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'change-every': { type: 'string' },
    once: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${OD_POS_HELP}\n`);
    return EXIT.OK;
  }
  const json = values.json === true;
  const port = values.port;
  if (port !== undefined && !/^\d+$/.test(port)) throw new UsageError('--port must be a port number');
  const changeEverySec = positiveSeconds(values['change-every']);
  const pos = posClient(values, io.env, { retry: { maxAttempts: 3 } });
  const say = (text: string, record: Record<string, unknown>) =>
    io.stdout.write(json ? `${JSON.stringify(record)}\n` : `${text}\n`);

  let version = 0;
  const server = await startOdPos({
    menu: odButcherMenu(),
    host: values.host,
    port: port === undefined ? 0 : Number(port),
    onRequest: (entry) =>
      say(
        `POS ← ${entry.method} ${entry.path} → ${entry.status}${entry.body ? ` ${JSON.stringify(entry.body)}` : ''}`,
        { pos: entry },
      ),
  });
  try {
    say(`Open Delivery POS serving its menu at ${server.url}/v1/merchant (X-API-KEY ${server.apiKey})`, {
      posUrl: server.url,
      apiKey: server.apiKey,
    });
    const first = await publishThroughOdPos(pos, server, io.signal);
    say(`catalog sync: ${first.status}: ${first.moreInfo ?? ''}`, { sync: first });
    if (values.once) return first.status === 'SUCCESS' ? EXIT.OK : EXIT.SYNC_FAILED;

    const signal = io.signal ?? new AbortController().signal;
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const change = async () => {
        version += 1;
        const price = Number((89.9 + (version % 5)).toFixed(2));
        server.setMenu(odButcherMenu({ prices: { picanha: price }, lastUpdate: new Date() }));
        say(`menu changed: picanha R$ ${price}/kg; notifying the platform`, { changed: { picanha: price } });
        try {
          await notifyMerchantUpdate(pos);
          const outcome = await waitForSync(pos, { signal });
          say(`catalog sync: ${outcome.status}: ${outcome.moreInfo ?? ''}`, { sync: outcome });
        } catch (error) {
          io.stderr.write(`could not notify the platform: ${(error as Error).message}\n`);
        }
        if (!signal.aborted) timer = setTimeout(change, (changeEverySec as number) * 1000);
      };
      if (changeEverySec) timer = setTimeout(change, changeEverySec * 1000);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
      if (!json) io.stdout.write('Serving until Ctrl-C (the platform may pull again at any time).\n');
    });
    return EXIT.OK;
  } finally {
    await server.close();
  }
}
