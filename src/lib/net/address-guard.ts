// D12: in production a webhook may only reach public unicast addresses. The check runs where
// the socket is opened (the connector's DNS lookup, and the literal address when the host is an
// IP), so a name that resolves to a public address at registration and to a private one later
// (DNS rebinding) is still refused, and nothing is followed to a redirect target (D11).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, isIPv4, isIPv6 } from 'node:net';

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  readonly code = 'ERR_WEBHOOK_ADDRESS_BLOCKED';
}

type IPv4Bytes = [number, number, number, number];

function parseIPv4(ip: string): IPv4Bytes | undefined {
  if (!isIPv4(ip)) return undefined;
  // isIPv4 has checked four dotted parts, so the defaults never apply.
  const [a = 0, b = 0, c = 0, d = 0] = ip.split('.').map(Number);
  return [a, b, c, d];
}

/** 16 bytes of an IPv6 address (handles `::` and a dotted IPv4 tail). */
export function parseIPv6(input: string): number[] | undefined {
  const ip = input.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(ip)) return undefined;
  let head = ip;
  const tail: number[] = [];
  const lastColon = ip.lastIndexOf(':');
  const maybeV4 = ip.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    const v4 = parseIPv4(maybeV4);
    if (!v4) return undefined;
    tail.push(v4[0] * 256 + v4[1], v4[2] * 256 + v4[3]);
    head = ip.slice(0, lastColon + 1);
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const toGroups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== '') : []);
  const l = toGroups(left).map((g) => Number.parseInt(g, 16));
  const r = toGroups(right).map((g) => Number.parseInt(g, 16));
  const missing = 8 - l.length - r.length - tail.length;
  if (missing < 0 || (right === undefined && missing !== 0)) return undefined;
  const groups = [...l, ...new Array(right === undefined ? 0 : missing).fill(0), ...r, ...tail];
  if (groups.length !== 8) return undefined;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function inV4(bytes: IPv4Bytes, base: IPv4Bytes, prefix: number): boolean {
  const value = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  const net = ((base[0] << 24) | (base[1] << 16) | (base[2] << 8) | base[3]) >>> 0;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (value & mask) >>> 0 === (net & mask) >>> 0;
}

// IANA IPv4 special-purpose registry, plus multicast and the old class E space.
const V4_BLOCKED: Array<[IPv4Bytes, number, string]> = [
  [[0, 0, 0, 0], 8, '"this network"'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'carrier-grade NAT'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local (cloud metadata)'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 31, 196, 0], 24, 'AS112'],
  [[192, 52, 193, 0], 24, 'AMT'],
  [[192, 88, 99, 0], 24, '6to4 relay anycast'],
  [[192, 168, 0, 0], 16, 'private'],
  [[192, 175, 48, 0], 24, 'AS112'],
  [[198, 18, 0, 0], 15, 'benchmarking'],
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

function classifyV4(bytes: IPv4Bytes): string | undefined {
  for (const [base, prefix, reason] of V4_BLOCKED) if (inV4(bytes, base, prefix)) return reason;
  return undefined;
}

function startsWith(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    const [a, b] = [bytes[byte], prefix[byte]];
    // A prefix longer than the address it is compared with never matches.
    if (a === undefined || b === undefined || (a & mask) !== (b & mask)) return false;
  }
  return true;
}

const v6 = (s: string) => parseIPv6(s) as number[];
// Inside 2000::/3 (the only global unicast space) the special-purpose blocks that are not a
// plain public host: NAT64/6to4/Teredo embed an IPv4 address that may be private.
const V6_BLOCKED_IN_GLOBAL: Array<[number[], number, string]> = [
  [v6('2001::'), 23, 'IETF protocol assignments (Teredo, ORCHID, benchmarking)'],
  [v6('2001:db8::'), 32, 'documentation'],
  [v6('2002::'), 16, '6to4 (embeds an IPv4 address)'],
  [v6('3fff::'), 20, 'documentation'],
];

/** Why an address is not public unicast, or undefined when it is. */
export function blockedReason(address: string): string | undefined {
  const family = isIP(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (family === 4) return classifyV4(parseIPv4(address) as IPv4Bytes);
  if (family !== 6) return 'not an IP address';
  const bytes = parseIPv6(address);
  if (!bytes) return 'not an IP address';
  if (bytes.every((b) => b === 0)) return 'unspecified';
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return 'IPv4-mapped IPv6';
  }
  if (bytes.slice(0, 12).every((b) => b === 0)) return 'IPv4-compatible IPv6';
  if (startsWith(bytes, v6('64:ff9b::'), 96)) return 'NAT64 (embeds an IPv4 address)';
  if (startsWith(bytes, v6('64:ff9b:1::'), 48)) return 'NAT64 local-use';
  if (startsWith(bytes, v6('100::'), 64)) return 'discard-only';
  if (startsWith(bytes, v6('fc00::'), 7)) return 'unique-local';
  if (startsWith(bytes, v6('fe80::'), 10)) return 'link-local';
  if (startsWith(bytes, v6('fec0::'), 10)) return 'site-local';
  if (startsWith(bytes, v6('ff00::'), 8)) return 'multicast';
  if (!startsWith(bytes, v6('2000::'), 3)) return 'reserved (outside global unicast 2000::/3)';
  for (const [prefix, bits, reason] of V6_BLOCKED_IN_GLOBAL) if (startsWith(bytes, prefix, bits)) return reason;
  return undefined;
}

export function assertPublicAddress(address: string, host: string): void {
  const reason = blockedReason(address);
  if (reason) {
    throw new BlockedAddressError(`Refused to connect to ${host}: ${address} is not a public address (${reason})`);
  }
}

export type LookupFn = typeof dnsLookup;
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that resolves through `resolve` and refuses the connection when ANY
 * resolved address is not public (a mixed answer could be raced to the private one).
 */
export function guardedLookup(resolve: LookupFn = dnsLookup) {
  return (hostname: string, options: { all?: boolean; family?: number } | number, callback: LookupCallback) => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    (resolve as (h: string, o: object, cb: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) => void)(
      hostname,
      { ...opts, all: true },
      (error, addresses) => {
        if (error) return callback(error, opts.all ? [] : '', 0);
        const list = addresses as LookupAddress[];
        const [first] = list;
        if (first === undefined) {
          const e = new Error(`No address found for ${hostname}`) as NodeJS.ErrnoException;
          e.code = 'ENOTFOUND';
          return callback(e, opts.all ? [] : '', 0);
        }
        try {
          for (const a of list) assertPublicAddress(a.address, hostname);
        } catch (blocked) {
          return callback(blocked as NodeJS.ErrnoException, opts.all ? [] : '', 0);
        }
        if (opts.all) return callback(null, list);
        return callback(null, first.address, first.family);
      },
    );
  };
}
