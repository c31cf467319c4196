-- Orders, their events, the per-integration-key receipts that polling reads, tracking updates.

-- D5: lifecycle `status` and `last_event` are two fields. The order document (items, customer,
-- payments, fees, discounts, addresses) is fixed at creation and kept as jsonb in the shape
-- GET /v1/orders/{id} returns, so that read is one primary-key lookup. jsonb numbers are
-- PostgreSQL numeric (exact); the four totals are numeric columns as well (D9).
CREATE TABLE orders (
  id                     uuid PRIMARY KEY,
  merchant_id            uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  type                   text NOT NULL CHECK (type IN ('DELIVERY', 'TAKEOUT')),
  display_id             text NOT NULL,
  status                 text NOT NULL CHECK (status IN ('CREATED', 'CONFIRMED', 'READY_FOR_PICKUP', 'DISPATCHED',
                                                         'DELIVERED', 'CONCLUDED', 'CANCELLED')),
  last_event             text NOT NULL,
  -- Every event type the order has had (D7: "Order has already same event type").
  event_types            text[] NOT NULL DEFAULT '{}',
  -- D7: an open customer request (ORDER_CANCELLATION_REQUEST) waiting for the POS answer, and an
  -- open POS request (CANCELLATION_REQUESTED) waiting for the platform's; {reason, code}, or null.
  customer_cancellation  jsonb,
  pos_cancellation       jsonb,
  customer_id            uuid NOT NULL,
  delivery_code          text NOT NULL,
  items_price            numeric(14, 4) NOT NULL,
  other_fees             numeric(14, 4) NOT NULL,
  discount               numeric(14, 4) NOT NULL,
  order_amount           numeric(14, 4) NOT NULL,
  document               jsonb NOT NULL,
  order_external_code    text,
  preparation_time_min   integer,
  preparation_start_at   timestamptz,
  delivered_at           timestamptz,
  -- Compare-and-set token: every transition is `UPDATE … WHERE id = $1 AND version = $2`.
  version                integer NOT NULL DEFAULT 0,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL
);
CREATE INDEX orders_merchant_created_idx ON orders (merchant_id, created_at DESC);
CREATE INDEX orders_merchant_customer_idx ON orders (merchant_id, customer_id);

-- D1: one row per (order, event type); a repeat re-opens it (new occurrence, new created_at,
-- new seq). seq orders polling: oldest first, stable within one clock tick.
CREATE SEQUENCE order_events_seq;
CREATE TABLE order_events (
  order_id      uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  event_type    text NOT NULL,
  merchant_id   uuid NOT NULL,
  occurrence_id uuid NOT NULL,
  seq           bigint NOT NULL,
  metadata      jsonb,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (order_id, event_type)
);

-- Every occurrence, kept for the operator's timeline (including the webhook-only
-- CANCELLATION_REQUEST_DENIED of D8, polled = false).
CREATE TABLE order_event_log (
  position      bigserial PRIMARY KEY,
  occurrence_id uuid NOT NULL UNIQUE,
  order_id      uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  event_type    text NOT NULL,
  metadata      jsonb,
  polled        boolean NOT NULL,
  created_at    timestamptz NOT NULL
);
CREATE INDEX order_event_log_order_idx ON order_event_log (order_id, position);

-- Fan-out (architecture.md#data-flow): one receipt per integration key and event, written in
-- the transaction that records the event. Acknowledgment marks it (spec 4.13: per key).
CREATE TABLE event_receipts (
  key_id          uuid NOT NULL REFERENCES integration_keys (id) ON DELETE CASCADE,
  order_id        uuid NOT NULL,
  event_type      text NOT NULL,
  seq             bigint NOT NULL,
  acknowledged_at timestamptz,
  PRIMARY KEY (key_id, order_id, event_type),
  FOREIGN KEY (order_id, event_type) REFERENCES order_events (order_id, event_type) ON DELETE CASCADE
);
-- D3: polling reads only pending receipts of one key, in seq order; acknowledged rows are not in
-- this index, so the cost of a poll does not grow with the acknowledged history.
CREATE INDEX event_receipts_pending_idx ON event_receipts (key_id, seq) WHERE acknowledged_at IS NULL;

-- Spec 4.12: tracking updates from the POS, stored always (D7).
CREATE TABLE order_tracking (
  position    bigserial PRIMARY KEY,
  id          uuid NOT NULL UNIQUE,
  order_id    uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  key_id      uuid,
  body        jsonb NOT NULL,
  received_at timestamptz NOT NULL
);
CREATE INDEX order_tracking_order_idx ON order_tracking (order_id, position);
