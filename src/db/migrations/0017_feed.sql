-- The platform feed (D36): an outbox of everything the marketplace's own systems hear about,
-- written in the transaction of the change it describes. How the cursor stays gap-free whatever
-- order concurrent transactions commit in is argued in docs/adr/0010-feed-cursor.md: an item is
-- inserted without a position, and one stamper at a time gives committed items the next
-- positions; readers read stamped items only, by position.
CREATE TABLE feed_items (
  id          uuid PRIMARY KEY,
  -- Insertion order (a sequence taken inside the writing transaction): orders the stamping of
  -- items committed by the time a stamper runs, never what readers page by.
  seq         bigserial NOT NULL,
  -- NULL until stamped; then the item's place in the feed (its cursor). Unique, increasing in
  -- stamping order.
  position    bigint UNIQUE,
  kind        text NOT NULL CHECK (kind IN ('order', 'merchant', 'catalog', 'webhook')),
  type        text NOT NULL,
  merchant_id uuid NOT NULL,
  order_id    uuid,
  occurred_at timestamptz NOT NULL,
  data        jsonb NOT NULL
);
-- What the stamper looks for: items not stamped yet, in insertion order.
CREATE INDEX feed_items_unstamped_idx ON feed_items (seq) WHERE position IS NULL;
-- A reader following one merchant.
CREATE INDEX feed_items_merchant_position_idx ON feed_items (merchant_id, position);
-- Retention (D36: 7 days by default) removes the oldest items first.
CREATE INDEX feed_items_occurred_idx ON feed_items (occurred_at);

-- The stamper's one row: the highest position given so far. Locking it serialises stampers.
CREATE TABLE feed_stamper (
  id            integer PRIMARY KEY CHECK (id = 1),
  last_position bigint NOT NULL
);
INSERT INTO feed_stamper (id, last_position) VALUES (1, 0);

-- The NATS relay's progress (D36): the last position it published, so that a relay killed
-- mid-stream resumes there (the broker drops a re-publish by Nats-Msg-Id), and retention never
-- removes what it has not published yet.
CREATE TABLE feed_relays (
  name            text PRIMARY KEY,
  position        bigint NOT NULL DEFAULT 0,
  published_at    timestamptz,
  updated_at      timestamptz NOT NULL
);

-- D36: a fourth operator role, `platform`, for the marketplace's service tokens.
ALTER TABLE operators DROP CONSTRAINT operators_role_check;
ALTER TABLE operators ADD CONSTRAINT operators_role_check CHECK (role IN ('admin', 'support', 'viewer', 'platform'));
ALTER TABLE operator_tokens DROP CONSTRAINT operator_tokens_role_check;
ALTER TABLE operator_tokens ADD CONSTRAINT operator_tokens_role_check
  CHECK (role IN ('admin', 'support', 'viewer', 'platform'));
