import type { Db } from '../../db/db.js';
import * as repo from './webhooks-repository.js';

/**
 * Group commit of attempt results: whatever finished while the previous write ran goes out in
 * the next one statement, so the write rate follows the delivery rate without one round trip per
 * delivery. A result counts as recorded (and its slot and order are freed) once written.
 */
export function createResultWriter(
  db: Db,
  options: { maxBatch?: number; onHealthChange?: (changes: repo.HealthChange[]) => Promise<void> } = {},
) {
  const maxBatch = options.maxBatch ?? 500;
  let buffer: Array<{ result: repo.AttemptResult; done: (error?: unknown) => void }> = [];
  let busy = false;
  const flush = async () => {
    if (busy || buffer.length === 0) return;
    busy = true;
    const batch = buffer.slice(0, maxBatch);
    buffer = buffer.slice(maxBatch);
    try {
      await repo.recordAttempts(
        db,
        batch.map((b) => b.result),
      );
      for (const b of batch) b.done();
      await followHealth(batch.map((b) => b.result));
    } catch (error) {
      for (const b of batch) b.done(error);
    } finally {
      busy = false;
      if (buffer.length > 0) setImmediate(flush);
    }
  };
  /** Each endpoint's health follows its attempts; a change is reported. Never fails a write. */
  async function followHealth(results: repo.AttemptResult[]): Promise<void> {
    const outcomes = results.flatMap((r) =>
      r.merchantId && r.targetUrl !== null
        ? [{ merchantId: r.merchantId, ok: r.status === 'DELIVERED', error: r.error, at: r.startedAt }]
        : [],
    );
    try {
      const changes = await repo.updateEndpointHealth(db, outcomes);
      if (changes.length > 0) await options.onHealthChange?.(changes);
    } catch {
      // Health is derived: the next attempt's write brings it up to date.
    }
  }

  return {
    write(result: repo.AttemptResult): Promise<void> {
      return new Promise((resolve, reject) => {
        buffer.push({ result, done: (error) => (error === undefined ? resolve() : reject(error)) });
        if (buffer.length === 1) setImmediate(flush);
      });
    },
  };
}
