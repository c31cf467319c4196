// D46: one warning line per failover, not stack traces. When PostgreSQL (or Redis, or NATS) goes
// away for a few seconds, every part of a process notices at once: the pool's idle connections,
// the LISTEN connections, each background queue, the feed's relay, the request-log writer and
// every request in flight. Each used to write its own line, some with a stack trace (6–21 lines
// per process for one failover). They all report here instead: the first error of an outage
// writes one line naming the dependency and what happened; later ones are counted, and written
// as one "still unavailable" line at most once a minute while the outage lasts. An outage ends
// after `quietMs` without an error; the next error starts a new one (a new line).

export type Dependency = 'database' | 'redis' | 'nats';

export interface OutageReportOptions {
  /** Without an error this long, the outage is over: the next error writes a new line. */
  quietMs?: number;
  /** While an outage lasts, how often a "still unavailable" line is written. */
  repeatMs?: number;
  write?: (line: string) => void;
  now?: () => number;
}

interface Outage {
  startedAt: number;
  lastAt: number;
  lastLineAt: number;
  errors: number;
}

export type OutageReporter = (dependency: Dependency, problem: string, where: string) => boolean;

/** Returns a reporter; it answers whether it wrote a line (tests). */
export function createOutageReport(options: OutageReportOptions = {}): OutageReporter {
  const quietMs = options.quietMs ?? 15_000;
  const repeatMs = options.repeatMs ?? 60_000;
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const now = options.now ?? Date.now;
  const outages = new Map<Dependency, Outage>();
  return (dependency, problem, where) => {
    const t = now();
    const current = outages.get(dependency);
    if (current === undefined || t - current.lastAt >= quietMs) {
      outages.set(dependency, { startedAt: t, lastAt: t, lastLineAt: t, errors: 1 });
      write(`cleaver: warning: ${dependency} unavailable (${problem}), seen by ${where}; retrying\n`);
      return true;
    }
    current.lastAt = t;
    current.errors += 1;
    if (t - current.lastLineAt < repeatMs) return false;
    current.lastLineAt = t;
    const sec = Math.round((t - current.startedAt) / 1000);
    write(
      `cleaver: warning: ${dependency} still unavailable after ${sec} s (${problem}; ${current.errors} errors); retrying\n`,
    );
    return true;
  };
}

/** The process's reporter: every part of one process shares it, so one outage is one line. */
export const reportOutage: OutageReporter = createOutageReport();
