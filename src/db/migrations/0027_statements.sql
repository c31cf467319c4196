-- Statements (D45): what each merchant is owed, period by period, to the cent.

-- D45: the merchant's settlement settings. A row only once an operator sets them: a merchant
-- without one has the defaults (commission 12 %, weekly), so no existing row is rewritten.
CREATE TABLE statement_settings (
  merchant_id        uuid PRIMARY KEY REFERENCES merchants (id) ON DELETE CASCADE,
  commission_percent numeric(5, 2) NOT NULL DEFAULT 12
    CHECK (commission_percent >= 0 AND commission_percent <= 100),
  settlement_cycle   text NOT NULL DEFAULT 'WEEKLY' CHECK (settlement_cycle IN ('DAILY', 'WEEKLY')),
  updated_at         timestamptz NOT NULL
);

-- One statement per merchant and period [period_start, period_end). Totals are written once, by
-- the transaction that closes it (the sum of its lines); an OPEN statement's totals are read
-- from its lines. No foreign key to merchants: a statement is a financial record and outlives
-- whatever happens to the merchant's row.
CREATE TABLE statements (
  id           uuid PRIMARY KEY,
  merchant_id  uuid NOT NULL,
  period_start timestamptz NOT NULL,
  period_end   timestamptz NOT NULL CHECK (period_end > period_start),
  state        text NOT NULL DEFAULT 'OPEN' CHECK (state IN ('OPEN', 'CLOSED', 'PAID')),
  -- {gross, weighingAdjustments, cancellations, commission, collectedByMerchant, adjustments, net}
  -- as decimal text, set when the statement closes.
  totals       jsonb,
  closed_at    timestamptz,
  paid_at      timestamptz,
  paid_reference text,
  created_at   timestamptz NOT NULL,
  UNIQUE (merchant_id, period_start)
);
-- What the closing worker looks for: open statements whose period has ended.
CREATE INDEX statements_open_end_idx ON statements (period_end) WHERE state = 'OPEN';
-- The operator's list, newest period first, and a merchant's own.
CREATE INDEX statements_period_idx ON statements (period_start DESC, id DESC);
CREATE INDEX statements_merchant_period_idx ON statements (merchant_id, period_start DESC, id DESC);

-- Each line counted once (D45): an order's lines are unique per order and kind, so a replayed
-- conclusion cannot count the order twice.
CREATE TABLE statement_lines (
  position     bigserial PRIMARY KEY,
  id           uuid NOT NULL UNIQUE,
  statement_id uuid NOT NULL REFERENCES statements (id),
  kind         text NOT NULL CHECK (kind IN ('ORDER', 'WEIGHING_ADJUSTMENT', 'CANCELLATION', 'COMMISSION',
                                              'COLLECTED_BY_MERCHANT', 'ADJUSTMENT')),
  -- Exact decimal (D9), as the sign convention of D45 reads it: every kind but ADJUSTMENT is a
  -- positive amount that net adds or subtracts by kind; an ADJUSTMENT carries its own sign.
  value        numeric(14, 4) NOT NULL,
  order_id     uuid,
  -- ADJUSTMENT: the operator's reason; COMMISSION: the rate it was taken at.
  detail       jsonb NOT NULL DEFAULT '{}',
  occurred_at  timestamptz NOT NULL
);
CREATE INDEX statement_lines_statement_idx ON statement_lines (statement_id, position);
CREATE UNIQUE INDEX statement_lines_order_kind_idx ON statement_lines (order_id, kind)
  WHERE order_id IS NOT NULL AND kind IN ('ORDER', 'COMMISSION', 'COLLECTED_BY_MERCHANT');

-- D45: a CLOSED statement never changes. Enforced by the database itself, whoever writes: lines
-- are added to OPEN statements only and never changed or removed; a statement's period, merchant
-- and totals are fixed once it closed, and the only change left is CLOSED → PAID.
CREATE FUNCTION statement_lines_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'statement lines are append-only: % refused', TG_OP USING ERRCODE = '42501';
  END IF;
  IF (SELECT state FROM statements WHERE id = NEW.statement_id) <> 'OPEN' THEN
    RAISE EXCEPTION 'statement % is closed: its lines never change', NEW.statement_id USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER statement_lines_guard BEFORE INSERT OR UPDATE OR DELETE ON statement_lines
  FOR EACH ROW EXECUTE FUNCTION statement_lines_guard();

CREATE FUNCTION statements_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.state <> 'OPEN' THEN
      RAISE EXCEPTION 'statement % is closed: it is never removed', OLD.id USING ERRCODE = '42501';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.state = 'OPEN' THEN
    RETURN NEW;
  END IF;
  IF OLD.state = 'CLOSED' AND NEW.state = 'PAID' AND NEW.totals = OLD.totals
     AND NEW.period_start = OLD.period_start AND NEW.period_end = OLD.period_end
     AND NEW.merchant_id = OLD.merchant_id AND NEW.closed_at = OLD.closed_at THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'statement % is %: it never changes', OLD.id, OLD.state USING ERRCODE = '42501';
END;
$$;
CREATE TRIGGER statements_guard BEFORE UPDATE OR DELETE ON statements
  FOR EACH ROW EXECUTE FUNCTION statements_guard();

-- D45: the closing writes the feed item `settlement STATEMENT_CLOSED`.
ALTER TABLE feed_items DROP CONSTRAINT feed_items_kind_check;
ALTER TABLE feed_items ADD CONSTRAINT feed_items_kind_check
  CHECK (kind IN ('order', 'merchant', 'catalog', 'webhook', 'settlement'));
