// `cleaver listen --forward-to URL` (sandbox only, like `stripe listen`): the merchant's webhooks
// are handed to this command instead of the registered URL (POST /v1/sandbox/listen, see
// src/modules/webhooks/webhook-forwarding.ts), POSTed to a local URL with the exact signed
// headers and body the service would send, and each local answer is reported back and recorded
// as the delivery attempt (retried on the schedule when it is not a 2xx).
import { CleaverNetworkError, type ForwardedAttemptRecorded, type ForwardedWebhook } from '@cleaver/pos-client';
import { EXIT, type Io, noMoreArguments, POS_HELP, POS_OPTIONS, parse, posClient, UsageError } from './common.js';
import { startProgress, stdoutPaint } from './terminal.js';

export const LISTEN_HELP = `Usage (sandbox only):
  cleaver listen --forward-to URL     receive the merchant's webhooks on a local URL

While it runs, the webhooks of the merchant of the POS credentials are not sent to its registered
ordersWebhookURL (none needs to be registered): each is POSTed to URL as is (no path appended),
with exactly the headers and signatures the service sends (webhook-id, webhook-timestamp,
webhook-signature, X-App-Signature), and the local answer is recorded as the delivery attempt:
a 2xx delivers it, anything else is retried on the usual schedule. Ctrl-C stops listening, and
webhooks go to the registered URL again.

One line per webhook: time, event type, order, the local answer and what was recorded.
--json prints one JSON object per webhook instead.

${POS_HELP}`;

/** What the service keeps of an answer (webhook-sender.ts). */
const SNIPPET_CHARS = 1024;
const USER_AGENT = 'Cleaver-Webhooks/1.0';

interface LocalAnswer {
  statusCode: number | null;
  durationMs: number;
  responseSnippet: string | null;
  error: string | null;
  retryAfter?: string;
}

/** POSTs the webhook exactly as the service would; a redirect is an answer, never followed. */
async function forwardLocally(url: string, delivery: ForwardedWebhook, timeoutMs: number): Promise<LocalAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'user-agent': USER_AGENT, ...delivery.headers },
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text().catch(() => '');
    return {
      statusCode: res.status,
      durationMs: elapsed(),
      responseSnippet: text ? text.slice(0, SNIPPET_CHARS) : null,
      error: null,
      ...(res.headers.get('retry-after') ? { retryAfter: String(res.headers.get('retry-after')).slice(0, 100) } : {}),
    };
  } catch (error) {
    const err = error as Error & { cause?: { message?: string; code?: string } };
    const reason =
      err.name === 'TimeoutError'
        ? `No answer within ${timeoutMs} ms`
        : (err.cause?.message ?? err.cause?.code ?? err.message);
    return { statusCode: null, durationMs: elapsed(), responseSnippet: null, error: `${reason} (${url})` };
  }
}

function checkUrl(value: string | undefined): string {
  if (value === undefined) throw new UsageError('missing --forward-to URL (e.g. http://localhost:4000/webhooks)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to is not a valid URL: "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--forward-to must be an http or https URL, got "${value}"`);
  }
  return value;
}

export async function listenCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { ...POS_OPTIONS, 'forward-to': { type: 'string' } });
  if (values.help) {
    io.stdout.write(`${LISTEN_HELP}\n`);
    return EXIT.OK;
  }
  noMoreArguments(positionals, 0, 'listen');
  const forwardTo = checkUrl(values['forward-to']);
  const json = values.json === true;
  const client = posClient(values, io.env);
  const p = stdoutPaint(io);
  const signal = io.signal ?? new AbortController().signal;
  const progress = startProgress(io, json);

  const print = (delivery: ForwardedWebhook, answer: LocalAnswer, recorded: ForwardedAttemptRecorded | string) => {
    progress.stop();
    if (json) {
      io.stdout.write(
        `${JSON.stringify({
          at: new Date().toISOString(),
          deliveryId: delivery.deliveryId,
          webhookId: delivery.webhookId,
          eventType: delivery.eventType,
          orderId: delivery.orderId,
          attemptNo: delivery.attemptNo,
          statusCode: answer.statusCode,
          durationMs: answer.durationMs,
          error: answer.error,
          ...(typeof recorded === 'string' ? { reportError: recorded } : { recorded }),
        })}\n`,
      );
      return;
    }
    const ok = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
    const local = answer.statusCode === null ? p.red(answer.error ?? 'no answer') : String(answer.statusCode);
    const outcome =
      typeof recorded === 'string'
        ? p.red(`not recorded: ${recorded}`)
        : recorded.status === 'DELIVERED'
          ? p.green('delivered')
          : recorded.status === 'FAILED'
            ? p.red('failed (retry schedule used up)')
            : p.yellow(`retry at ${recorded.nextAttemptAt}`);
    io.stdout.write(
      `${new Date().toISOString()}  ${ok ? p.green('→') : p.red('→')} ${p.bold(delivery.eventType)} ` +
        `order ${delivery.orderId} attempt ${delivery.attemptNo}  [${local}] ${answer.durationMs} ms  ${outcome}\n`,
    );
  };

  const handle = async (delivery: ForwardedWebhook, timeoutMs: number) => {
    const answer = await forwardLocally(forwardTo, delivery, timeoutMs);
    let recorded: ForwardedAttemptRecorded | string;
    try {
      recorded = await client.reportForwardedAttempt(delivery.deliveryId, {
        leaseToken: delivery.leaseToken,
        statusCode: answer.statusCode,
        durationMs: answer.durationMs,
        responseSnippet: answer.responseSnippet,
        error: answer.error?.slice(0, 4096) ?? null,
        ...(answer.retryAfter ? { retryAfter: answer.retryAfter } : {}),
      });
    } catch (error) {
      recorded = (error as Error).message;
    }
    print(delivery, answer, recorded);
  };

  if (!json)
    io.stderr.write(`Ready: forwarding the webhooks of merchant ${client.clientId} to ${forwardTo} (Ctrl-C to stop)\n`);
  let waitingSince = 0;
  try {
    while (!signal.aborted) {
      progress.update('waiting for webhooks…');
      let answer: Awaited<ReturnType<typeof client.listenForWebhooks>>;
      try {
        answer = await client.listenForWebhooks(forwardTo, { waitSeconds: 20, signal });
        waitingSince = 0;
      } catch (error) {
        if (signal.aborted) break;
        // The server restarting or unreachable for a moment: say so once, keep trying.
        if (!(error instanceof CleaverNetworkError)) throw error;
        if (!waitingSince) {
          waitingSince = Date.now();
          progress.stop();
          io.stderr.write(`cleaver listen: the server does not answer (${error.message}); trying again…\n`);
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      // Each order's webhooks come one at a time (the service keeps them in order), so those
      // handed over together are independent and go out at once, all within the lease.
      await Promise.all(answer.deliveries.map((d) => handle(d, answer.timeoutMs)));
    }
  } finally {
    progress.stop();
    // Webhooks go to the registered URL again at once, not when the session lapses.
    await client.stopListening().catch(() => undefined);
  }
  if (!json) io.stderr.write('Stopped listening: webhooks go to the registered URL again\n');
  return EXIT.OK;
}
