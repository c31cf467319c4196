// What the worker and `cleaver listen` forwarding (webhook-forwarding.ts) decide the same way:
// which key signs a delivery (D10) and what follows a failed attempt (D11), so a delivery
// forwarded to a developer's machine is signed and retried exactly as one sent by a worker.
import { nextAttemptDelayMs, parseRetryAfter } from './retry-schedule.js';
import type { Outcome } from './webhook-metrics.js';
import type { DeliveryStatus } from './webhooks-repository.js';

export interface SigningKeys {
  signingSecret(keyId: string): Promise<string | undefined>;
  listIntegrationKeys(merchantId: string): Promise<Array<{ id: string; created_at: Date }>>;
  /** A number that changes when a key is deleted (this process's knowledge of it). */
  signingKeysChanged?(): number;
}

/** D10: the key that registered the URL; if it was deleted, the newest other active key. */
export async function findSigningSecret(
  auth: SigningKeys,
  merchantId: string,
  keyId: string | null,
): Promise<string | undefined> {
  if (keyId) {
    const secret = await auth.signingSecret(keyId);
    if (secret !== undefined) return secret;
  }
  const keys = await auth.listIntegrationKeys(merchantId);
  const newest = [...keys].sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
  for (const key of newest) {
    const secret = await auth.signingSecret(key.id);
    if (secret !== undefined) return secret;
  }
  return undefined;
}

export interface RetryDecision {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  outcome: Outcome;
}

/**
 * D11, after a failed attempt (`attemptNo` = the attempt that just failed, from 1): the schedule,
 * never sooner than the receiver's Retry-After on 429/503; FAILED when the schedule is used up.
 */
export function decideRetry(
  attemptNo: number,
  answer: { statusCode: number | null; retryAfter?: string | string[] },
  now: Date,
  schedule: number[],
  random?: () => number,
): RetryDecision {
  const retryAfterMs =
    answer.statusCode === 429 || answer.statusCode === 503 ? parseRetryAfter(answer.retryAfter, now) : undefined;
  const delay = nextAttemptDelayMs(attemptNo, schedule, { retryAfterMs, random });
  if (delay === undefined) return { status: 'FAILED', nextAttemptAt: null, outcome: 'failed' };
  return { status: 'PENDING', nextAttemptAt: new Date(now.getTime() + delay), outcome: 'retry_scheduled' };
}
