// D20: the platform fetches the catalog from the POS. Open Delivery's `GET /v1/merchant` lives
// on the merchant's registered base URL and is authenticated with the `X-API-KEY` header.
import { request } from 'undici';

export interface PullLimits {
  timeoutMs: number;
  maxBytes: number;
  /** Production (D12, D25): the POS endpoint must be https. */
  httpsOnly?: boolean;
}

export const DEFAULT_PULL_LIMITS: PullLimits = { timeoutMs: 15_000, maxBytes: 32 * 1024 * 1024 };

/** `{baseURL}/v1/merchant` (Open Delivery), unless the registered URL already names the endpoint. */
export function pullUrl(baseURL: string): string {
  const trimmed = baseURL.replace(/\/+$/, '');
  return /\/merchant$/i.test(new URL(trimmed).pathname) ? trimmed : `${trimmed}/v1/merchant`;
}

/** The POS answer parsed as JSON, or a reason a person can read (recorded as a FAIL sync). */
export async function fetchPosCatalog(
  target: { baseURL: string; apiKey: string },
  limits: PullLimits = DEFAULT_PULL_LIMITS,
): Promise<{ body: unknown } | { reason: string }> {
  let url: string;
  try {
    url = pullUrl(target.baseURL);
  } catch {
    return { reason: `Pull failed: getMerchantURL.baseURL is not a valid URL` };
  }
  if (limits.httpsOnly && !url.startsWith('https://')) {
    return { reason: 'Pull failed: getMerchantURL.baseURL must use https in production' };
  }
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const response = await request(url, {
      method: 'GET',
      // undici does not follow redirects unless told to: a 3xx is a failed pull.
      headers: { accept: 'application/json', 'x-api-key': target.apiKey },
      signal,
      headersTimeout: limits.timeoutMs,
      bodyTimeout: limits.timeoutMs,
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump().catch(() => {});
      return { reason: `Pull failed: GET ${url} answered HTTP ${response.statusCode}` };
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      await response.body.dump().catch(() => {});
      return { reason: `Pull failed: the POS answer is larger than ${limits.maxBytes} bytes` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBytes) {
        response.body.destroy();
        return { reason: `Pull failed: the POS answer is larger than ${limits.maxBytes} bytes` };
      }
      chunks.push(chunk as Buffer);
    }
    try {
      return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    } catch {
      return { reason: `Pull failed: the POS answer from GET ${url} is not valid JSON` };
    }
  } catch (error) {
    if (signal.aborted) return { reason: `Pull failed: GET ${url} took longer than ${limits.timeoutMs} ms` };
    const code = (error as { code?: string }).code;
    return { reason: `Pull failed: GET ${url} could not be completed (${code ?? (error as Error).message})` };
  }
}
