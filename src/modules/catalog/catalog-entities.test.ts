// The walk each planner runs over a list of entities (D17, D18), table-driven (style.md#tests): a
// row is a list, how it is walked, and what is taken, discarded and claimed.
import { describe, expect, it } from 'vitest';
import { type EntityList, eachEntity } from './catalog-entities.js';
import type { Discarded } from './catalog-plan-types.js';

/** `take` discards an entry whose `bad` is set, and keeps the others. */
function walk(entries: unknown[], list: Omit<EntityList, 'discarded'> = { kind: 'items' }) {
  const discarded: Discarded[] = [];
  const taken: Array<[string, number]> = [];
  const claimed = eachEntity(entries, { ...list, discarded }, (raw, id, index, drop) => {
    if (raw.bad) return drop(`bad ${raw.bad}`);
    taken.push([id, index]);
  });
  return { taken, discarded, claimed: [...claimed] };
}

const rows: Array<{
  rule: string;
  entries: unknown[];
  list?: Omit<EntityList, 'discarded'>;
  taken: Array<[string, number]>;
  discarded: Discarded[];
  claimed: string[];
}> = [
  {
    rule: 'entries with a usable id are taken with their position; a number id becomes text',
    entries: [{ id: 'A' }, { id: 7 }],
    taken: [
      ['A', 0],
      ['7', 1],
    ],
    discarded: [],
    claimed: ['A', '7'],
  },
  {
    rule: 'an entry that is not an object is discarded without an id',
    entries: [null, 'A', ['A'], { id: 'A' }],
    taken: [['A', 3]],
    discarded: [
      { kind: 'items', id: null, index: 0, reason: 'not an object' },
      { kind: 'items', id: null, index: 1, reason: 'not an object' },
      { kind: 'items', id: null, index: 2, reason: 'not an object' },
    ],
    claimed: ['A'],
  },
  {
    rule: 'an entry without a usable id is discarded: absent, blank, or neither text nor number',
    entries: [{}, { id: '  ' }, { id: true }],
    taken: [],
    discarded: [
      { kind: 'items', id: null, index: 0, reason: 'id is missing' },
      { kind: 'items', id: null, index: 1, reason: 'id is missing' },
      { kind: 'items', id: null, index: 2, reason: 'id is missing' },
    ],
    claimed: [],
  },
  {
    rule: 'a list may say more about a missing id',
    entries: [{ name: 'x' }],
    list: { kind: 'itemOffers', missing: 'id is missing: no category can reach it' },
    taken: [],
    discarded: [{ kind: 'itemOffers', id: null, index: 0, reason: 'id is missing: no category can reach it' }],
    claimed: [],
  },
  {
    rule: 'the key may be itemId (ITEM_OFFER, D18), and the reasons name it',
    entries: [{ id: 'O1' }, { itemId: 'P1' }, { itemId: 'P1' }],
    list: { kind: 'itemOffers', key: 'itemId' },
    taken: [['P1', 1]],
    discarded: [
      { kind: 'itemOffers', id: null, index: 0, reason: 'itemId is missing' },
      { kind: 'itemOffers', id: 'P1', index: 2, reason: 'duplicate itemId' },
    ],
    claimed: ['P1'],
  },
  {
    rule: 'a repeated id is discarded with it; the first entry is the one taken (ids are trimmed)',
    entries: [{ id: 'A' }, { id: ' A ' }],
    taken: [['A', 0]],
    discarded: [{ kind: 'items', id: 'A', index: 1, reason: 'duplicate id' }],
    claimed: ['A'],
  },
  {
    rule: 'first owner: an id is claimed by its first entry even when take discards it',
    entries: [{ id: 'A', bad: 'name' }, { id: 'A' }],
    taken: [],
    discarded: [
      { kind: 'items', id: 'A', index: 0, reason: 'bad name' },
      { kind: 'items', id: 'A', index: 1, reason: 'duplicate id' },
    ],
    claimed: ['A'],
  },
  {
    rule: 'kept owner: a discarded entry leaves its id to a later one, which a third then repeats',
    entries: [{ id: 'A', bad: 'name' }, { id: 'A' }, { id: 'A' }],
    list: { kind: 'categories', owner: 'kept' },
    taken: [['A', 1]],
    discarded: [
      { kind: 'categories', id: 'A', index: 0, reason: 'bad name' },
      { kind: 'categories', id: 'A', index: 2, reason: 'duplicate id' },
    ],
    claimed: ['A'],
  },
  {
    rule: 'kept owner: only the ids of kept entries are returned',
    entries: [{ id: 'A', bad: 'status' }, { id: 'B' }],
    list: { kind: 'categories', owner: 'kept' },
    taken: [['B', 1]],
    discarded: [{ kind: 'categories', id: 'A', index: 0, reason: 'bad status' }],
    claimed: ['B'],
  },
];

describe('eachEntity', () => {
  it.each(rows)('$rule', ({ entries, list, taken, discarded, claimed }) => {
    const result = walk(entries, list);
    expect(result.taken).toEqual(taken);
    // Strict: a discard record has exactly kind, id, index and reason (no path), as before the walk was shared.
    expect(result.discarded).toStrictEqual(discarded);
    expect(result.claimed).toEqual(claimed);
  });

  it('appends to the discards already in the list, in entry order', () => {
    const earlier: Discarded = { kind: 'updatedObjects', id: null, index: 1, reason: 'earlier' };
    const discarded: Discarded[] = [earlier];
    eachEntity([{ id: 'A' }, 3], { kind: 'links', discarded }, () => {});
    expect(discarded).toStrictEqual([earlier, { kind: 'links', id: null, index: 1, reason: 'not an object' }]);
  });
});
