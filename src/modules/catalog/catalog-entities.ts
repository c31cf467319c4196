// The walk every list of entities in an upload shares (spec 4.3, D17, D18, D29): an entry that is
// not an object, has no usable id or repeats an id is discarded with its kind, id and position
// before any of its fields is read, so each planner states only the rules of its own entity.
import { isObject, type Obj, readId } from './catalog-fields.js';
import type { Discarded, DiscardKind } from './catalog-plan-types.js';

export interface EntityList {
  kind: DiscardKind;
  discarded: Discarded[];
  /** The field that names an entry: `id`, or `itemId` in an ITEM_OFFER upload (D18). */
  key?: 'id' | 'itemId';
  /** The reason when the key is missing, where there is more to say than `<key> is missing`. */
  missing?: string;
  /**
   * Which entry owns an id: the first that carries it (`first`, later ones are duplicates even
   * when the first is discarded), or the first that `take` keeps (`kept`: categories of a MERCHANT
   * upload, where a discarded category does not stop a later one with the same id).
   */
  owner?: 'first' | 'kept';
}

/**
 * Calls `take` for each entry that passed the common checks; `take` may discard it too, through
 * `drop`. Returns the ids that were claimed, so a later list can tell a reference to a discarded
 * entry (claimed, not kept) from a reference to nothing.
 */
export function eachEntity(
  entries: unknown[],
  list: EntityList,
  take: (raw: Obj, id: string, index: number, drop: (reason: string) => void) => void,
): Set<string> {
  const { kind, discarded, key = 'id', missing = `${key} is missing`, owner = 'first' } = list;
  const claimed = new Set<string>();
  for (const [index, raw] of entries.entries()) {
    const id = isObject(raw) ? readId(raw[key]) : null;
    let dropped = false;
    const drop = (reason: string) => {
      dropped = true;
      discarded.push({ kind, id, index, reason });
    };
    if (!isObject(raw)) drop('not an object');
    else if (id === null) drop(missing);
    else if (claimed.has(id)) drop(`duplicate ${key}`);
    else {
      if (owner === 'first') claimed.add(id);
      take(raw, id, index, drop);
      if (!dropped) claimed.add(id);
    }
  }
  return claimed;
}

/** Spec 4.3: a MERCHANT body is one store; the entries after updatedObjects[0] are discarded and reported. */
export function discardBeyondFirst(updatedObjects: unknown[], discarded: Discarded[]): void {
  for (let i = 1; i < updatedObjects.length; i++) {
    discarded.push({
      kind: 'updatedObjects',
      id: null,
      index: i,
      reason: 'only updatedObjects[0] is read when entityType is MERCHANT',
    });
  }
}
