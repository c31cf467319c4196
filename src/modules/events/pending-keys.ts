// Which integration keys are known to have nothing pending, so that a poll answering 204 need
// not ask the database (docs/adr/0012-pending-keys-cache.md). A key is learned from a poll that
// read nothing, and forgotten when the fan-out gives it a receipt: the fan-out's NOTIFY, sent in
// the transaction that creates the receipts, reaches every process (this one too) once it
// commits. Whenever this process cannot be sure it heard every notification (not started yet,
// the listening connection lost or back), it forgets everything and asks the database.
import type { Db } from '../../db/db.js';
import { PENDING_CHANNEL } from './events-repository.js';

/**
 * How long a key stays known without a poll: longer than a POS's polling interval (30 s, D3), or
 * the cache would never answer; as long as the merchant cache's (D24). A poll answered from
 * memory starts it again, up to KNOWN_EMPTY_MAX_MS.
 */
export const KNOWN_EMPTY_MS = 60_000;
/**
 * How long a key stays known since the database last said it had nothing pending, however often
 * it is polled. Only a safety net: correctness rests on the notifications, not on this bound.
 * Without the renewal above, a POS polling every 30 s had its key read from the database at
 * every second or third poll; with it, one poll in ten.
 */
export const KNOWN_EMPTY_MAX_MS = 5 * 60_000;
/** A bound on memory, not a size to tune: past it everything is forgotten and learned again. */
export const MAX_KNOWN_KEYS = 500_000;

/** A database read of one key's pending receipts, under way. */
export interface PendingRead {
  readonly keyId: string;
  /** Set when the key got a receipt (or everything was forgotten) since the read began. */
  stale: boolean;
}

export interface PendingKeys {
  /** Subscribes to the fan-out's notifications; until then (and after stop) nothing is known. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * True only when the key had nothing pending at a read that began after its last receipt
   * committed, checked against every notification committed before this call.
   */
  knownEmpty(keyId: string): Promise<boolean>;
  /** Call before reading the key's pending receipts, and `endRead` after. */
  beginRead(keyId: string): PendingRead;
  endRead(read: PendingRead, foundNothing: boolean): void;
  /** Forgets one key: it got a receipt. */
  forget(keyId: string): void;
  /** Forgets every key (a reconnect: notifications may have been missed). */
  forgetAll(): void;
}

export function createPendingKeys(deps: { db: Db; now?: () => number }): PendingKeys {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  /** keyId → when its knowledge expires: without a poll (`until`), and at the latest (`limit`). */
  const known = new Map<string, { until: number; limit: number }>();
  const reads = new Map<string, Set<PendingRead>>();
  let listening = false;
  let unlisten: (() => Promise<void>) | undefined;

  const forget = (keyId: string) => {
    known.delete(keyId);
    for (const read of reads.get(keyId) ?? []) read.stale = true;
  };
  const forgetAll = () => {
    known.clear();
    for (const ofKey of reads.values()) for (const read of ofKey) read.stale = true;
  };
  /** The key's knowledge while it holds; an expired one is dropped. */
  const knownEntry = (keyId: string) => {
    const entry = known.get(keyId);
    if (entry === undefined) return undefined;
    if (entry.until > now()) return entry;
    known.delete(keyId);
    return undefined;
  };

  return {
    async start() {
      if (unlisten) return;
      // The payload is a key id: the fan-out notifies each key that got a receipt.
      unlisten = await db.listen(PENDING_CHANNEL, forget, forgetAll);
      listening = true;
    },
    async stop() {
      listening = false;
      forgetAll();
      const u = unlisten;
      unlisten = undefined;
      await u?.();
    },
    async knownEmpty(keyId) {
      if (!listening || !knownEntry(keyId)) return false;
      try {
        await db.caughtUp(PENDING_CHANNEL);
      } catch {
        forgetAll(); // the connection is down or changed: nothing heard can be trusted
        return false;
      }
      // A notification that came during the round trip forgot the key.
      const entry = listening ? knownEntry(keyId) : undefined;
      if (!entry) return false;
      // Answered from memory: the key stays known for KNOWN_EMPTY_MS more, up to its limit.
      entry.until = Math.min(now() + KNOWN_EMPTY_MS, entry.limit);
      return true;
    },
    beginRead(keyId) {
      const read: PendingRead = { keyId, stale: !listening };
      const ofKey = reads.get(keyId) ?? new Set<PendingRead>();
      reads.set(keyId, ofKey);
      ofKey.add(read);
      return read;
    },
    endRead(read, foundNothing) {
      const ofKey = reads.get(read.keyId);
      ofKey?.delete(read);
      if (ofKey?.size === 0) reads.delete(read.keyId);
      // A receipt committed while the read was under way may be missing from what it read.
      if (!foundNothing || read.stale || !listening) return;
      if (known.size >= MAX_KNOWN_KEYS) known.clear();
      const at = now();
      known.set(read.keyId, { until: at + KNOWN_EMPTY_MS, limit: at + KNOWN_EMPTY_MAX_MS });
    },
    forget,
    forgetAll,
  };
}
