// One loop for every leased-row queue (docs/design/architecture.md "Background work"): the
// queue says how to claim, handle and (optionally) keep a lease alive; this file owns waking,
// concurrency, backoff while the database is away, and a stop that awaits in-flight work.
//
// A job is a row in a domain table (a catalog sync, a webhook delivery) claimed with
// `FOR UPDATE SKIP LOCKED` under a lease. The worker is woken at once by NOTIFY on the queue's
// channel (PostgreSQL delivers it on commit; PGlite to its own listeners), by a timer for the
// queue's next due time (a retry, a lease that runs out), and by a slow safety poll in case a
// notification was lost. While the database is unreachable it retries with backoff and reports
// itself unhealthy; it never gives up (D31).

import type { Db } from '../db/db.js';
import { traced } from '../lib/tracing.js';

export interface LeasedQueue<Job> {
  /** For logs and health: `catalog-syncs`, `webhook-deliveries`. */
  name: string;
  /** NOTIFY channel that means "something may be runnable now". */
  channel: string;
  /** Claims at most `limit` runnable jobs under a lease. */
  claim(limit: number): Promise<Job[]>;
  /** Runs one claimed job to its end, recording the outcome itself. A throw is reported. */
  handle(job: Job): Promise<void>;
  /** Extends the leases of the jobs still running (long jobs only). */
  heartbeat?(jobs: Job[]): Promise<void>;
  /** When a job will next become runnable without a notification, or null. */
  nextWakeAt?(): Promise<Date | null>;
}

export interface LeasedWorkerOptions {
  db: Db;
  now: () => Date;
  /** Jobs one process runs at once. */
  concurrency: number;
  /** Rows claimed per query (≤ concurrency). */
  batchSize?: number;
  /** How often the leases of running jobs are extended (queues with `heartbeat`). */
  heartbeatMs?: number;
  /** Longest sleep without a notification. */
  safetyPollMs?: number;
  /** While jobs run, how often the queue's next due time is asked at most (default 250 ms). */
  busyRecheckMs?: number;
  /** First and largest wait after the database failed. */
  backoffMs?: { min: number; max: number };
  onError?: (error: unknown, context: { queue: string; phase: 'claim' | 'handle' | 'heartbeat' }) => void;
}

export interface WorkerHealth {
  queue: string;
  running: boolean;
  /** False while claims fail (database away); set again by the next successful claim. */
  healthy: boolean;
  inFlight: number;
  lastError: string | null;
  lastErrorAt: Date | null;
}

export function createLeasedWorker<Job>(queue: LeasedQueue<Job>, options: LeasedWorkerOptions) {
  const concurrency = Math.max(1, options.concurrency);
  const batchSize = Math.max(1, Math.min(options.batchSize ?? concurrency, concurrency));
  // While jobs run, claim again only once half a batch of slots is free. Refilling every freed
  // slot at once made a saturated webhook worker claim ~16 rows per statement (10,000 deliveries:
  // 630 claims and as many result writes, most of the embedded database's time). An idle worker
  // has every slot free, so a single new job is still claimed at once (latency unchanged).
  const refillAt = Math.max(1, Math.floor(batchSize / 2));
  const safetyPollMs = options.safetyPollMs ?? 30_000;
  const busyRecheckMs = options.busyRecheckMs ?? 250;
  const backoff = options.backoffMs ?? { min: 250, max: 5_000 };
  const report = (error: unknown, phase: 'claim' | 'handle' | 'heartbeat') =>
    options.onError?.(error, { queue: queue.name, phase });

  let running = false;
  let pumping = false;
  // Settles when the pump in progress ends: stop() awaits it instead of polling `pumping`.
  let pumped: Promise<void> = Promise.resolve();
  let pumpEnded = () => {};
  let pumpAgain = false;
  let wakeScheduled = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  // The queue's next due time as last asked (performance.now() clock), for untilNextDue.
  let dueAskedAt = Number.NEGATIVE_INFINITY;
  let dueInAt: number | null = null;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  const active = new Map<Promise<void>, Job>();
  const health: WorkerHealth = {
    queue: queue.name,
    running: false,
    healthy: true,
    inFlight: 0,
    lastError: null,
    lastErrorAt: null,
  };

  function noteFailure(error: unknown): void {
    failures += 1;
    health.healthy = false;
    health.lastError = error instanceof Error ? error.message : String(error);
    health.lastErrorAt = options.now();
  }

  function start(job: Job): void {
    const work: Promise<void> = queue
      .handle(job)
      .catch((error) => report(error, 'handle'))
      .finally(() => {
        active.delete(work);
        health.inFlight = active.size;
        // A finished job frees a slot, and may make the next one of its group runnable.
        wake();
      });
    active.set(work, job);
    health.inFlight = active.size;
  }

  function wake(): void {
    if (!running || wakeScheduled) return;
    wakeScheduled = true;
    setImmediate(() => {
      wakeScheduled = false;
      void pump();
    });
  }

  function schedule(ms: number): void {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = undefined;
        void pump();
      },
      Math.max(1, ms),
    );
    // Deliberately not unref'd: a worker process has nothing else keeping it alive, and it
    // must outlive a database outage (D31).
  }

  async function pump(): Promise<void> {
    if (!running) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    pumped = new Promise((resolve) => {
      pumpEnded = resolve;
    });
    let nextInMs: number | undefined;
    try {
      do {
        pumpAgain = false;
        while (running && concurrency - active.size >= refillAt) {
          const limit = Math.min(batchSize, concurrency - active.size);
          // A span per claim while tracing is on (each job's own span continues its trace).
          const jobs = await traced(`${queue.name} claim`, () => queue.claim(limit));
          failures = 0;
          health.healthy = true;
          if (jobs.length === 0) break;
          for (const job of jobs) start(job);
        }
      } while (pumpAgain && running);
      // Busy (fewer than refillAt slots free): every finishing job wakes the pump, so no timer.
      if (running && concurrency - active.size >= refillAt) nextInMs = await untilNextDue();
    } catch (error) {
      noteFailure(error);
      report(error, 'claim');
      nextInMs = Math.min(backoff.max, backoff.min * 2 ** Math.min(failures - 1, 10));
    } finally {
      pumping = false;
      pumpEnded();
    }
    // A wake-up that arrived after the last claim (a NOTIFY while nextWakeAt was being read, whose
    // snapshot may predate that commit) would otherwise wait for the timer: up to safetyPollMs
    // (seen as one delivery in 100 taking 30 s in bench/webhooks.ts). Not after a failed claim:
    // the backoff stands.
    if (pumpAgain && running && failures === 0) {
      wake();
      return;
    }
    if (nextInMs !== undefined) schedule(nextInMs);
  }

  /**
   * How long to sleep when the claim found nothing more to run. With jobs in flight, the queue's
   * next due time is asked at most once per `busyRecheckMs`: each finishing job wakes the pump and
   * an empty claim follows, and asking every time cost more than the claims (158 webhook next-due
   * reads in a 20,000-delivery drain, a quarter of PostgreSQL's time; docs/benchmarks.md, third
   * session). Meanwhile the timer still fires by the end of that window, so a time that came
   * closer (a retry written by a finished job) waits no longer.
   */
  async function untilNextDue(): Promise<number> {
    if (!queue.nextWakeAt) return safetyPollMs;
    const fresh = active.size === 0 || performance.now() - dueAskedAt >= busyRecheckMs;
    if (fresh) {
      const due = await queue.nextWakeAt();
      dueAskedAt = performance.now();
      dueInAt = due ? dueAskedAt + (due.getTime() - options.now().getTime()) : null;
    }
    const now = performance.now();
    let wait = dueInAt === null ? safetyPollMs : dueInAt - now;
    if (!fresh) {
      // The remembered answer: a time that has passed was claimed already (the claim just ran),
      // and one that came closer since is seen by asking again when the window ends.
      if (wait <= 0) wait = safetyPollMs;
      wait = Math.min(wait, dueAskedAt + busyRecheckMs - now);
    }
    // A job due now that the claim did not get is held by another worker's claim for a moment:
    // look again shortly rather than spin.
    return Math.min(Math.max(wait, 5), safetyPollMs);
  }

  async function beat(): Promise<void> {
    if (!queue.heartbeat || active.size === 0) return;
    try {
      await queue.heartbeat([...active.values()]);
    } catch (error) {
      report(error, 'heartbeat');
    }
  }

  /** Claims once and runs what it got to the end; how many jobs (tests, CLI). */
  async function runOnce(limit = batchSize): Promise<number> {
    const jobs = await traced(`${queue.name} claim`, () => queue.claim(limit));
    await Promise.all(jobs.map((job) => queue.handle(job).catch((error) => report(error, 'handle'))));
    return jobs.length;
  }

  /**
   * Runs until nothing is runnable; with `maxWaitMs`, also waits for jobs that come due within
   * that time (a compressed retry schedule in tests plays out to the end). Returns how many ran.
   */
  async function drain(drainOptions: { maxWaitMs?: number } = {}): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await runOnce();
      total += n;
      if (n > 0) continue;
      if (!drainOptions.maxWaitMs || !queue.nextWakeAt) return total;
      const due = await queue.nextWakeAt();
      if (!due) return total;
      const wait = due.getTime() - options.now().getTime();
      if (wait > drainOptions.maxWaitMs) return total;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait)));
    }
  }

  return {
    runOnce,
    drain,
    wake,
    health: (): WorkerHealth => ({ ...health }),

    async start(): Promise<void> {
      if (running) return;
      running = true;
      health.running = true;
      try {
        unlisten = await options.db.listen(queue.channel, wake, wake);
      } catch (error) {
        // The listening connection retries by itself (db.listen); meanwhile timers cover.
        noteFailure(error);
        report(error, 'claim');
      }
      if (queue.heartbeat && options.heartbeatMs) {
        heartbeatTimer = setInterval(() => void beat(), options.heartbeatMs);
      }
      wake();
    },

    /** Stops claiming, then waits for the jobs in flight to finish. */
    async stop(): Promise<void> {
      running = false;
      health.running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await unlisten?.().catch(() => {});
      unlisten = undefined;
      if (pumping) await pumped;
      // Leases of running jobs are kept alive until they finish.
      await Promise.all([...active.keys()]);
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      heartbeatTimer = undefined;
    },
  };
}

export type LeasedWorker = ReturnType<typeof createLeasedWorker>;
