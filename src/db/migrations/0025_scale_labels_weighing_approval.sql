-- The counter (D41, D42) and encomendas' catalog field (D44): the products' scale code, KG limits
-- and lead time. Nullable columns without defaults: added without rewriting the table.

-- D41: the product's code on the scale's labels, 1 to 6 digits (a layout's code holds 4 to 6).
ALTER TABLE products ADD COLUMN scale_code text CHECK (scale_code ~ '^[0-9]{1,6}$');
-- D42: the ordered quantity's limits (kg). The three come together or not at all.
ALTER TABLE products ADD COLUMN weight_min numeric(7, 3);
ALTER TABLE products ADD COLUMN weight_max numeric(7, 3);
ALTER TABLE products ADD COLUMN weight_step numeric(7, 3);
ALTER TABLE products ADD CONSTRAINT products_weight_check CHECK (
  (weight_min IS NULL AND weight_max IS NULL AND weight_step IS NULL)
  OR (weight_min > 0 AND weight_max >= weight_min AND weight_step > 0)
);
-- D44: the least time (hours) between intake and the start of a scheduled order's slot.
ALTER TABLE products ADD COLUMN lead_time_hours numeric(6, 2) CHECK (lead_time_hours >= 0);

-- D41: the merchant's scale label layouts, tried in order ([{prefix, codeDigits, value,
-- valueDigits, decimals}]); a short list read with the merchant's row when a label is weighed.
ALTER TABLE merchants ADD COLUMN scale_label_layouts jsonb NOT NULL DEFAULT '[]';
-- D42: what a weighing out of tolerance does (REFUSE: D38's 400; ASK: the platform decides for
-- the customer by the deadline, else the default applies).
ALTER TABLE merchants ADD COLUMN weighing_out_of_tolerance text NOT NULL DEFAULT 'REFUSE'
  CHECK (weighing_out_of_tolerance IN ('REFUSE', 'ASK'));
ALTER TABLE merchants ADD COLUMN weighing_approval_seconds integer NOT NULL DEFAULT 300
  CHECK (weighing_approval_seconds BETWEEN 10 AND 86400);
ALTER TABLE merchants ADD COLUMN weighing_approval_default text NOT NULL DEFAULT 'REJECT'
  CHECK (weighing_approval_default IN ('ACCEPT', 'REJECT', 'REMOVE_LINES'));

-- D42: a weighing out of tolerance waiting for the platform's decision, and the decision. The
-- state leaves PENDING_APPROVAL once, by a compare-and-set in the transaction that changes the
-- order: of a decision and the deadline worker racing, exactly one writes.
CREATE TABLE weighing_approvals (
  id              uuid PRIMARY KEY,
  order_id        uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  merchant_id     uuid NOT NULL,
  -- The integration key that weighed.
  key_id          uuid,
  state           text NOT NULL DEFAULT 'PENDING_APPROVAL'
                  CHECK (state IN ('PENDING_APPROVAL', 'ACCEPTED', 'REJECTED', 'LINES_REMOVED')),
  -- The weighing as requested, labels read: [{index, quantity, scaleLabel?, labelPrice?}]
  request         jsonb NOT NULL,
  -- The lines before and after, as shown while it waits
  lines           jsonb NOT NULL,
  items_price_before numeric(14, 4) NOT NULL,
  items_price_after  numeric(14, 4) NOT NULL,
  deadline        timestamptz NOT NULL,
  -- What the merchant's default was when it was asked (a later change does not move it)
  default_decision text NOT NULL,
  decision        text CHECK (decision IN ('ACCEPT', 'REJECT', 'REMOVE_LINES')),
  decided_by      text CHECK (decided_by IN ('platform', 'deadline')),
  removed_lines   jsonb,
  decided_at      timestamptz,
  created_at      timestamptz NOT NULL
);
-- One pending weighing per order at most.
CREATE UNIQUE INDEX weighing_approvals_pending_idx ON weighing_approvals (order_id) WHERE state = 'PENDING_APPROVAL';
-- The deadline worker's scan: only pending rows, by deadline.
CREATE INDEX weighing_approvals_deadline_idx ON weighing_approvals (deadline) WHERE state = 'PENDING_APPROVAL';
