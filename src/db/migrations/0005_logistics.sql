-- Logistics partner updates (spec 4.14): every signed deliveryUpdate once, and what it did to
-- each order it names (its orderId and its combinedOrdersIds).

-- One row per accepted request. Replays are recognised by the sha256 of the signed body bytes
-- per app (style.md#habits: every edge is idempotent): the unique key makes a second delivery of the
-- same signed request a no-op, even when two copies arrive at once (the second insert waits
-- for the first transaction, then finds the row).
CREATE TABLE logistics_requests (
  id           uuid PRIMARY KEY,
  app_id       uuid NOT NULL REFERENCES logistics_apps (id) ON DELETE CASCADE,
  body_sha256  text NOT NULL CHECK (body_sha256 ~ '^[0-9a-f]{64}$'),
  merchant_id  uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  delivery_id  uuid NOT NULL,
  event_type   text NOT NULL,
  -- The body as received (after the signature check), for the operator's timeline.
  body         jsonb NOT NULL,
  received_at  timestamptz NOT NULL,
  UNIQUE (app_id, body_sha256)
);

-- One row per order a request applied to. status_before/status_after and raised_event say
-- whether the order moved (spec 3.1: DELIVERY_ONGOING → DISPATCHED, DELIVERY_FINISHED →
-- DELIVERED; other types are kept for tracking only); note says why it did not.
CREATE TABLE logistics_updates (
  position      bigserial PRIMARY KEY,
  request_id    uuid NOT NULL REFERENCES logistics_requests (id) ON DELETE CASCADE,
  order_id      uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  -- True when the order was named in combinedOrdersIds rather than as orderId.
  combined      boolean NOT NULL,
  status_before text NOT NULL,
  status_after  text NOT NULL,
  raised_event  text,
  note          text,
  UNIQUE (request_id, order_id)
);
CREATE INDEX logistics_updates_order_idx ON logistics_updates (order_id, position);
