// @cleaver/pos-client ships alone, so it writes out its own copy of the lists a POS sends and
// receives instead of importing the server's (docs/adr/pos-client-and-cli.md). The client tests
// catch drift only for the names they happen to use; this compares the copies whole: the event
// types of spec 3.1, the cancellation codes of spec 4.8 and 4.10, and the numbers of D38.
import { describe, expect, it } from 'vitest';
import {
  CANCELLATION_CODES as CLIENT_CANCELLATION_CODES,
  DEFAULT_WEIGHING_TOLERANCE_PERCENT as CLIENT_DEFAULT_TOLERANCE,
  ORDER_EVENT_TYPES as CLIENT_EVENT_TYPES,
  WEIGHT_DECIMALS as CLIENT_WEIGHT_DECIMALS,
} from '../../packages/pos-client/src/index.js';
import { ORDER_EVENT_TYPES } from '../../src/modules/events/index.js';
import { DEFAULT_WEIGHING_TOLERANCE_PERCENT, WEIGHT_DECIMALS } from '../../src/modules/orders/index.js';
import { CANCELLATION_CODES } from '../../src/modules/orders/orders-schemas.js';

interface NamedList {
  /** Where the list is written, as a reader would look for it. */
  where: string;
  names: readonly string[];
}

/** What keeps two copies of a list apart: the names each lacks, else a different order. */
function listDrift(server: NamedList, client: NamedList): string[] {
  const missing = (from: NamedList, other: NamedList) => other.names.filter((n) => !from.names.includes(n));
  const problems: string[] = [];
  for (const [from, other] of [
    [client, server],
    [server, client],
  ]) {
    const names = missing(from, other);
    if (names.length > 0) problems.push(`missing from ${from.where} (present in ${other.where}): ${names.join(', ')}`);
  }
  if (problems.length === 0 && server.names.join() !== client.names.join()) {
    problems.push(`${client.where} lists the names of ${server.where} in another order or with repeats`);
  }
  return problems;
}

const pairs = [
  {
    list: 'order event types (spec 3.1)',
    server: { where: 'src/modules/events/event-contract.ts ORDER_EVENT_TYPES', names: ORDER_EVENT_TYPES },
    client: { where: 'packages/pos-client/src/types.ts ORDER_EVENT_TYPES', names: CLIENT_EVENT_TYPES },
  },
  {
    list: 'cancellation codes (spec 4.8, 4.10)',
    server: { where: 'src/modules/orders/orders-schemas.ts CANCELLATION_CODES', names: CANCELLATION_CODES },
    client: { where: 'packages/pos-client/src/types.ts CANCELLATION_CODES', names: CLIENT_CANCELLATION_CODES },
  },
];

describe('lists @cleaver/pos-client copies from the server', () => {
  it.each(pairs)('the $list are the same names in the same order', ({ server, client }) => {
    expect(listDrift(server, client)).toEqual([]);
  });

  it('the weighing numbers of D38 are the same: default tolerance and decimals of a weight', () => {
    expect({ tolerance: CLIENT_DEFAULT_TOLERANCE, decimals: CLIENT_WEIGHT_DECIMALS }).toEqual({
      tolerance: DEFAULT_WEIGHING_TOLERANCE_PERCENT,
      decimals: WEIGHT_DECIMALS,
    });
  });

  it('names what each side lacks, and a reordering', () => {
    const server = { where: 'server', names: ['CREATED', 'CONFIRMED', 'CANCELLED'] };
    expect(listDrift(server, { where: 'client', names: ['CREATED', 'CONFIRMED', 'CANCELLED'] })).toEqual([]);
    expect(listDrift(server, { where: 'client', names: ['CREATED', 'DELIVERED'] })).toEqual([
      'missing from client (present in server): CONFIRMED, CANCELLED',
      'missing from server (present in client): DELIVERED',
    ]);
    expect(listDrift(server, { where: 'client', names: ['CONFIRMED', 'CREATED', 'CANCELLED'] })).toEqual([
      'client lists the names of server in another order or with repeats',
    ]);
  });
});
