// The operator's view of deliveries (operator-api.md#webhook-deliveries): the delivery, where it
// goes now or went last, and every attempt.
import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import { webhookPath } from './webhook-worker.js';
import * as repo from './webhooks-repository.js';
import type { WebhookAttempt, WebhookDelivery } from './webhooks-schemas.js';

export type AttemptView = Static<typeof WebhookAttempt>;
export type DeliveryView = Static<typeof WebhookDelivery>;

export async function toViews(db: Queryable, rows: repo.DeliveryRow[]): Promise<DeliveryView[]> {
  const attempts = await repo.listAttempts(
    db,
    rows.map((r) => r.id),
  );
  const byDelivery = new Map<string, repo.AttemptRow[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id) ?? [];
    list.push(a);
    byDelivery.set(a.delivery_id, list);
  }
  // D11: a pending delivery behind an earlier pending one of its order says which.
  const firstPending = await repo.firstPendingOfOrders(db, [
    ...new Set(rows.filter((r) => r.status === 'PENDING').map((r) => r.order_id)),
  ]);
  const merchantUrls = await repo.merchantWebhookUrls(db, [...new Set(rows.map((r) => r.merchant_id))]);
  return rows.map((r) => {
    const list = byDelivery.get(r.id) ?? [];
    const base = merchantUrls.get(r.merchant_id);
    // A pending delivery goes to the URL registered now; a finished one went where it last went.
    const lastTarget = [...list].reverse().find((a) => a.target_url)?.target_url ?? null;
    const target = r.status === 'PENDING' && base ? `${base}${webhookPath(r.profile)}` : (lastTarget ?? null);
    const inFlight = r.status === 'PENDING' && r.lease_token !== null;
    return {
      id: r.id,
      webhookId: r.occurrence_id,
      merchantId: r.merchant_id,
      orderId: r.order_id,
      eventType: r.event_type,
      profile: r.profile,
      // The exact body that was signed and sent: the event record (D2, D10).
      event: JSON.parse(r.body) as DeliveryView['event'],
      target,
      status: r.status,
      attemptCount: r.attempt_count,
      // While an attempt runs, next_attempt_at is the lease end: "now" is the honest answer.
      nextAttemptAt:
        r.status === 'PENDING' && r.next_attempt_at
          ? (inFlight ? r.updated_at : r.next_attempt_at).toISOString()
          : null,
      lastStatusCode: r.last_status_code,
      lastError: r.last_error,
      createdAt: r.created_at.toISOString(),
      deliveredAt: r.delivered_at?.toISOString() ?? null,
      waitingFor: (() => {
        const first = r.status === 'PENDING' ? firstPending.get(r.order_id) : undefined;
        return first && first.seq < r.seq ? { deliveryId: first.id, eventType: first.event_type } : null;
      })(),
      attempts: list.map((a) => ({
        attemptNo: a.attempt_no,
        at: a.started_at.toISOString(),
        statusCode: a.status_code,
        error: a.error,
        durationMs: a.duration_ms,
        target: a.target_url,
        responseSnippet: a.response_snippet,
      })),
    };
  });
}
