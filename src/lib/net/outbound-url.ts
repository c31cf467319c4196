// D12 at registration time: where a merchant's URL can already be known to point inside our
// network (a literal address in any spelling, a loopback name, a name that resolves to a private
// address now), refuse it with a 400 naming the field. The connect-time guard of
// outbound-agent.ts stays the real protection: DNS can change after registration.
import { type LookupAddress, lookup as systemLookup } from 'node:dns';
import { isIP } from 'node:net';
import { blockedReason, type LookupFn } from './address-guard.js';

/** How long registration waits for DNS before accepting (the connect-time check still holds). */
const RESOLVE_TIMEOUT_MS = 2_000;

function resolveAll(hostname: string, lookup: LookupFn): Promise<LookupAddress[] | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), RESOLVE_TIMEOUT_MS);
    (lookup as (h: string, o: object, cb: (e: Error | null, a: LookupAddress[]) => void) => void)(
      hostname,
      { all: true },
      (error, addresses) => {
        clearTimeout(timer);
        resolve(error ? undefined : addresses);
      },
    );
  });
}

/**
 * Why `url` may not be registered in production, or undefined when nothing is known against
 * it. `url` is already parsed: the WHATWG parser has turned `2130706433`, `0x7f000001` and
 * `0177.0.0.1` into `127.0.0.1`, so one check covers every spelling.
 */
export async function privateTargetReason(url: URL, lookup: LookupFn = systemLookup): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host)) return blockedReason(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  const addresses = await resolveAll(host, lookup);
  for (const a of addresses ?? []) {
    const reason = blockedReason(a.address);
    if (reason) return reason;
  }
  return undefined;
}
