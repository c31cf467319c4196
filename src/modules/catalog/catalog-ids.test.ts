import { describe, expect, it } from 'vitest';
import { isUuid } from '../../lib/ids.js';
import { newSortableId } from './catalog-ids.js';

describe('newSortableId', () => {
  it('gives valid, unique, increasing version-7 uuids even many per millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => newSortableId());
    expect(ids.every(isUuid)).toBe(true);
    expect(ids.every((id) => id[14] === '7' && '89ab'.includes(id[19]))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
