-- Butchery (D37, D38): the weighing tolerance of each merchant, and the weighings of an order.
-- Cuts need no new table: product_cuts (0002) has held them, with ON DELETE CASCADE from
-- products, since the catalog was first modelled (spec 2.5, 4.3).

-- D38: a weighed quantity may differ from the ordered one by at most this share (±, in percent).
-- A constant default adds the column without rewriting the table.
ALTER TABLE merchants ADD COLUMN weighing_tolerance_percent numeric(5, 2) NOT NULL DEFAULT 20
  CHECK (weighing_tolerance_percent >= 0 AND weighing_tolerance_percent <= 100);

-- D38: every accepted weighing, written in the transaction that changes the order (the order's
-- document carries the result; these rows are its timeline entries). Pruned with the order's
-- other history once the order is long finished (D30).
CREATE TABLE order_weighings (
  position            bigserial PRIMARY KEY,
  id                  uuid NOT NULL UNIQUE,
  order_id            uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  -- The integration key that weighed (null: the platform itself).
  key_id              uuid,
  -- [{index, orderedQuantity, quantity}] as the request applied them
  lines               jsonb NOT NULL,
  items_price_before  numeric(14, 4) NOT NULL,
  items_price_after   numeric(14, 4) NOT NULL,
  order_amount_after  numeric(14, 4) NOT NULL,
  -- D38: what the platform settles for a prepaid order ({value, currency}); null when nothing is prepaid
  weighing_adjustment jsonb,
  weighed_at          timestamptz NOT NULL
);
CREATE INDEX order_weighings_order_idx ON order_weighings (order_id, position);
