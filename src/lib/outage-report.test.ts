import { describe, expect, it } from 'vitest';
import { createOutageReport } from './outage-report.js';

describe('one warning line per outage (D46)', () => {
  it('writes the first error of an outage, then at most one line a minute, and a new outage after a quiet spell', () => {
    let now = 0;
    const lines: string[] = [];
    const report = createOutageReport({ now: () => now, write: (line) => lines.push(line) });
    // A failover: the pool, two queues, the relay and requests all fail within 3 s.
    for (const where of ['the connection pool', 'the webhook worker', 'the feed relay', 'requests', 'requests']) {
      report('database', 'connection reset', where);
      now += 600;
    }
    expect(lines).toEqual([
      'cleaver: warning: database unavailable (connection reset), seen by the connection pool; retrying\n',
    ]);
    // Another dependency is an outage of its own.
    report('redis', 'connect ECONNREFUSED', 'the rate-limit store');
    expect(lines).toHaveLength(2);
    // A long outage: errors every second for 70 s make one more line, with the count.
    for (let i = 0; i < 70; i++) {
      now += 1_000;
      report('database', 'connection refused', 'requests');
    }
    expect(lines.slice(2)).toEqual([
      'cleaver: warning: database still unavailable after 60 s (connection refused; 62 errors); retrying\n',
    ]);
    // 15 s without an error ends it: the next failover is a new line.
    now += 15_000;
    expect(report('database', 'the server is read-only (a replica, or a failover under way)', 'requests')).toBe(true);
    expect(lines.at(-1)).toBe(
      'cleaver: warning: database unavailable (the server is read-only (a replica, or a failover under way)), seen by requests; retrying\n',
    );
  });
});
