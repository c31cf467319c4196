-- Webhook deliveries (D10, D11, D12): one row per event occurrence and merchant, written in the
-- transaction that records the event (transactional outbox). The row is the job: workers claim
-- due rows with FOR UPDATE SKIP LOCKED and a lease (lease_token + next_attempt_at).
-- order_id has no foreign key on purpose: deliveries outlive nothing but the merchant, and the
-- orders table belongs to another module.

CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY,
  -- Per-order ordering (D11) follows seq: events of one order are recorded one at a time
  -- (the order row is locked), so seq order is the order in which they happened.
  seq              bigserial NOT NULL UNIQUE,
  merchant_id      uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  order_id         uuid NOT NULL,
  -- The webhook-id header: one per occurrence, the same on every retry and replay.
  occurrence_id    uuid NOT NULL UNIQUE,
  event_type       text NOT NULL,
  -- The exact body bytes that are signed and sent (UTF-8 JSON of the D2 record).
  body             text NOT NULL,
  status           text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  attempt_count    integer NOT NULL DEFAULT 0,
  -- PENDING: when the next attempt is due. While an attempt runs, the end of its lease: a
  -- worker that dies mid-attempt leaves the row due again once the lease has run out.
  next_attempt_at  timestamptz,
  lease_token      uuid,
  last_status_code integer,
  last_error       text,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  delivered_at     timestamptz
);

-- The claim: due rows only (partial, so finished rows cost nothing).
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, seq) WHERE status = 'PENDING';
-- "Is an earlier delivery of this order still pending?" (D11 ordering)
CREATE INDEX webhook_deliveries_order_pending_idx ON webhook_deliveries (order_id, seq) WHERE status = 'PENDING';
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (order_id, seq);
CREATE INDEX webhook_deliveries_merchant_idx ON webhook_deliveries (merchant_id, status, seq);

-- Every attempt, kept for the operator (operator-api.md#webhook-deliveries).
CREATE TABLE webhook_attempts (
  delivery_id      uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt_no       integer NOT NULL,
  started_at       timestamptz NOT NULL,
  duration_ms      integer NOT NULL,
  target_url       text,
  status_code      integer,
  error            text,
  -- At most 1 KB of what the receiver answered.
  response_snippet text,
  PRIMARY KEY (delivery_id, attempt_no)
);
