import { describe, expect, it } from 'vitest';
import { blockedReason, guardedLookup, parseIPv6 } from './address-guard.js';

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.255.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', '"this network"'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:8.8.8.8', 'IPv4-mapped IPv6'],
    ['::ffff:7f00:1', 'IPv4-mapped IPv6'],
    ['::7f00:1', 'IPv4-compatible IPv6'],
    ['64:ff9b::8.8.8.8', 'NAT64 (embeds an IPv4 address)'],
    ['64:ff9b:1::1', 'NAT64 local-use'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'IETF protocol assignments (Teredo, ORCHID, benchmarking)'],
    ['2002:c0a8:101::1', '6to4 (embeds an IPv4 address)'],
    ['4000::1', 'reserved (outside global unicast 2000::/3)'],
    ['example.com', 'not an IP address'],
  ])('%s → %s', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450::1'])(
    '%s is public',
    (address) => {
      expect(blockedReason(address)).toBeUndefined();
    },
  );

  it('parses IPv6 with a dotted tail and compressed zeros', () => {
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(parseIPv6('[fe80::1]')?.[15]).toBe(1);
    expect(parseIPv6('1.2.3.4')).toBeUndefined();
  });
});

describe('guardedLookup', () => {
  const resolver = (answer: Array<{ address: string; family: number }>) =>
    ((_h: string, _o: object, cb: (e: null, a: typeof answer) => void) => cb(null, answer)) as never;

  it('passes public answers through in both callback shapes', async () => {
    const lookup = guardedLookup(resolver([{ address: '8.8.8.8', family: 4 }]));
    const all = await new Promise((resolve) => lookup('x.test', { all: true }, (e, a) => resolve([e, a])));
    expect(all).toEqual([null, [{ address: '8.8.8.8', family: 4 }]]);
    const one = await new Promise((resolve) => lookup('x.test', {}, (e, a, f) => resolve([e, a, f])));
    expect(one).toEqual([null, '8.8.8.8', 4]);
  });

  it('refuses when any resolved address is private', async () => {
    const lookup = guardedLookup(
      resolver([
        { address: '8.8.8.8', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ]),
    );
    const error = await new Promise<Error | null>((resolve) => lookup('x.test', { all: true }, (e) => resolve(e)));
    expect(error?.message).toBe('Refused to connect to x.test: 10.0.0.1 is not a public address (private)');
  });
});
