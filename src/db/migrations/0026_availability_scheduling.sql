-- D43 (what is in the case) and D44 (encomendas): item pauses and stock, the store's timed pause,
-- the scheduling settings, and the slots' places taken.

-- D43: a product's pause and its counted stock, beside the catalog's own status (which uploads
-- write). No row: not paused, stock not counted. `stock` NULL: not counted; a number: kg (3
-- decimals) or units, never below zero (the CHECK is the last guard; every take is conditional).
CREATE TABLE product_availability (
  product_id   uuid PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
  merchant_id  uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  paused       boolean NOT NULL DEFAULT false,
  pause_reason text CHECK (pause_reason IN ('OUT_OF_STOCK', 'QUALITY', 'NOT_TODAY', 'OTHER')),
  paused_until timestamptz,
  stock        numeric(14, 3) CHECK (stock >= 0),
  updated_at   timestamptz NOT NULL
);
CREATE INDEX product_availability_merchant_idx ON product_availability (merchant_id);
-- The pause sweep reads only the pauses that end by themselves.
CREATE INDEX product_availability_until_idx ON product_availability (paused_until) WHERE paused AND paused_until IS NOT NULL;

-- D43: the store's timed pause. While set, status is UNAVAILABLE; at paused_until the sweep
-- switches it back (a compare-and-set on these columns: two workers never end it twice).
ALTER TABLE merchants ADD COLUMN pause_reason text;
ALTER TABLE merchants ADD COLUMN paused_until timestamptz;
CREATE INDEX merchants_paused_until_idx ON merchants (paused_until) WHERE paused_until IS NOT NULL;
-- D44: {slotMinutes, capacityPerSlot, horizonDays, confirmWithinMinutes, hours}; NULL: the defaults.
ALTER TABLE merchants ADD COLUMN scheduling jsonb;

-- D43: what a confirmed order took from counted stock, {productId: quantity}; a weighing moves
-- it, a cancellation gives it back. NULL: nothing taken.
ALTER TABLE orders ADD COLUMN stock_taken jsonb;

-- D44: the places taken in each slot of a merchant. A place is taken with one conditional upsert
-- (`taken < capacity`), so two intakes racing for the last place leave exactly one winner; a
-- cancellation gives the place back.
CREATE TABLE schedule_slots (
  merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  slot_start  timestamptz NOT NULL,
  taken       integer NOT NULL DEFAULT 0 CHECK (taken >= 0),
  PRIMARY KEY (merchant_id, slot_start)
);

-- D44: the slot a scheduled order holds a place in (its place is given back on cancellation).
ALTER TABLE orders ADD COLUMN slot_start timestamptz;
-- D44: a scheduled order not confirmed by then is cancelled by the sweep (confirmWithinMinutes).
ALTER TABLE orders ADD COLUMN confirm_by timestamptz;
CREATE INDEX orders_confirm_by_idx ON orders (confirm_by) WHERE status = 'CREATED' AND confirm_by IS NOT NULL;
