// The shared leased-row worker (src/jobs/leased-worker.ts): when it asks a queue for its next due
// time. Idle, it asks after every empty claim, so a timer fires exactly when a job comes due.
// With jobs in flight it asks at most once per busyRecheckMs (every finishing job wakes it, and
// asking each time cost the webhook queue a quarter of PostgreSQL's time in a drain), yet a job
// that comes due meanwhile still runs within that window, without any notification.
// The queue here is an in-memory list; the worker listens on the real test database.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLeasedWorker, type LeasedQueue } from '../../src/jobs/leased-worker.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

let database: TestDatabase | undefined;
let stopWorker: (() => Promise<void>) | undefined;
// Made before each test's clock starts: the jobs' due times are relative to it.
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await stopWorker?.();
  stopWorker = undefined;
  await database?.close();
  database = undefined;
});

interface Job {
  id: string;
  dueAt: number;
  runMs: number;
}

/** Jobs become claimable at dueAt (Date.now() clock); `ran` records when each one started. */
function memoryQueue(jobs: Job[]) {
  const waiting = [...jobs];
  const ran = new Map<string, number>();
  let wakeQuestions = 0;
  let release: (() => void) | undefined;
  const queue: LeasedQueue<Job> = {
    name: 'test-jobs',
    channel: 'cleaver_test_leased_worker',
    async claim(limit) {
      const now = Date.now();
      const due = waiting.filter((j) => j.dueAt <= now).slice(0, limit);
      for (const j of due) waiting.splice(waiting.indexOf(j), 1);
      return due;
    },
    async handle(job) {
      ran.set(job.id, Date.now());
      if (job.runMs === Number.POSITIVE_INFINITY) await new Promise<void>((resolve) => (release = resolve));
      else await new Promise((resolve) => setTimeout(resolve, job.runMs));
    },
    async nextWakeAt() {
      wakeQuestions += 1;
      const next = Math.min(...waiting.map((j) => j.dueAt));
      return Number.isFinite(next) ? new Date(next) : null;
    },
  };
  return { queue, ran, wakeQuestions: () => wakeQuestions, release: () => release?.() };
}

async function startWorker(queue: LeasedQueue<Job>, busyRecheckMs: number) {
  const worker = createLeasedWorker(queue, {
    db: (database as TestDatabase).db,
    now: () => new Date(),
    concurrency: 8,
    batchSize: 2,
    busyRecheckMs,
  });
  await worker.start();
  stopWorker = () => worker.stop();
  return worker;
}

const waitUntil = async (check: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('leased worker: when it asks for the next due time', () => {
  it('idle, a job due later runs when it comes due, without a notification', async () => {
    const start = Date.now();
    const q = memoryQueue([{ id: 'later', dueAt: start + 300, runMs: 1 }]);
    await startWorker(q.queue, 5_000);
    await waitUntil(() => q.ran.has('later'), 5_000);
    const at = q.ran.get('later') as number;
    expect(at).toBeGreaterThanOrEqual(start + 300);
    // The timer was set from the answer, not from the 5 s busy window or the safety poll.
    expect(at - start).toBeLessThan(1_500);
  });

  it('busy, a job that comes due runs within the recheck window while a long job is still running', async () => {
    const start = Date.now();
    const q = memoryQueue([
      { id: 'long', dueAt: start, runMs: Number.POSITIVE_INFINITY },
      { id: 'retry', dueAt: start + 200, runMs: 1 },
    ]);
    await startWorker(q.queue, 150);
    await waitUntil(() => q.ran.has('retry'), 5_000);
    expect(q.ran.has('long')).toBe(true);
    const at = q.ran.get('retry') as number;
    expect(at).toBeGreaterThanOrEqual(start + 200);
    expect(at - start).toBeLessThan(1_500);
    q.release();
  });

  it('busy with one long job and nothing else due, it asks once and sleeps (no polling every window)', async () => {
    const q = memoryQueue([{ id: 'long', dueAt: Date.now(), runMs: Number.POSITIVE_INFINITY }]);
    await startWorker(q.queue, 50);
    await waitUntil(() => q.ran.has('long'), 5_000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(q.wakeQuestions()).toBe(1);
    q.release();
  });

  it('busy, many finishing jobs do not make it ask each time', async () => {
    const start = Date.now();
    // One job that runs throughout, and 200 short ones due over ~1 s: each finish wakes the pump.
    const jobs: Job[] = [{ id: 'long', dueAt: start, runMs: Number.POSITIVE_INFINITY }];
    for (let i = 0; i < 200; i++) jobs.push({ id: `short-${i}`, dueAt: start + i * 5, runMs: 2 });
    const q = memoryQueue(jobs);
    await startWorker(q.queue, 250);
    await waitUntil(() => q.ran.size === jobs.length, 10_000);
    const elapsed = Date.now() - start;
    // At most one question per window while busy (plus the idle start): far fewer than the
    // 200 empty claims that followed each finish.
    expect(q.wakeQuestions()).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 2);
    expect(q.wakeQuestions()).toBeGreaterThan(0);
    q.release();
  });
});
