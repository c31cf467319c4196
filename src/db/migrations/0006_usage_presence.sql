-- What each integration key does (docs/design/decisions.md#d30 keeps it bounded): requests per
-- minute and route group, and when the POS was last seen doing what (presence). Written in
-- batches from memory by the usage recorder, never once per request.

CREATE TABLE key_usage_minutes (
  key_id       uuid NOT NULL,
  minute       timestamptz NOT NULL,
  route_group  text NOT NULL,
  requests     integer NOT NULL,
  errors_4xx   integer NOT NULL,
  throttled    integer NOT NULL,
  errors_5xx   integer NOT NULL,
  latency_ms_sum bigint NOT NULL,
  latency_ms_max integer NOT NULL,
  PRIMARY KEY (key_id, minute, route_group)
);
-- Pruning by age (D30) walks this, not the whole table.
CREATE INDEX key_usage_minutes_minute_idx ON key_usage_minutes (minute);

CREATE TABLE key_presence (
  key_id          uuid PRIMARY KEY,
  merchant_id     uuid NOT NULL,
  last_request_at timestamptz,
  last_poll_at    timestamptz,
  last_ack_at     timestamptz
);
CREATE INDEX key_presence_merchant_idx ON key_presence (merchant_id);

-- What happened to a merchant's order-receiving switch and why (operator, catalog, presence).
CREATE TABLE merchant_history (
  id          bigserial PRIMARY KEY,
  merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  at          timestamptz NOT NULL,
  kind        text NOT NULL,
  detail      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX merchant_history_merchant_idx ON merchant_history (merchant_id, id DESC);

-- Presence may switch a merchant off (off by default, CLEAVER_PRESENCE_AUTO_UNAVAILABLE_SEC) and
-- back on when its POS returns; only a switch it made is undone by it.
ALTER TABLE merchants ADD COLUMN auto_unavailable_at timestamptz;
