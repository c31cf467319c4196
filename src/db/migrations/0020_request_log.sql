-- The integrator's request log: the last 1,000 requests of each integration key, kept
-- 24 hours, for the POS to read with its own token (GET /v1/developer/requests) and for operators
-- on the key's console page. Written in batches by each API process (modules/usage/request-log.ts):
-- one INSERT a second, at most 1,000 rows per key and batch. Each process trims a key back to its
-- newest 1,000 rows after every 100 rows it wrote for it; reads never show more than the newest
-- 1,000 of the last 24 hours; retention deletes rows older than 24 hours (D30).
--
-- No primary key and no foreign key: rows are only ever found by key and position or by age, and
-- every index is one more write per logged request. key_id and merchant_id are the token's
-- (integration_keys, merchants): a deleted key's rows leave with age.
CREATE TABLE request_log (
  seq          bigserial NOT NULL,
  key_id       uuid NOT NULL,
  merchant_id  uuid NOT NULL,
  at           timestamptz NOT NULL,
  -- The X-Request-Id the answer carried.
  request_id   text NOT NULL,
  method       text NOT NULL,
  -- Path and query string as sent (at most 1,000 characters).
  path         text NOT NULL,
  status       smallint NOT NULL,
  duration_ms  integer NOT NULL,
  -- The {title} of an error answer (status >= 400), else null.
  error_title  text,
  -- Failed requests only: the body as JSON, secret-named fields redacted, at most 2 KB.
  body         text,
  body_truncated boolean NOT NULL DEFAULT false
);
-- A key's log, newest first (seq follows the order rows were written); the trim finds its 1,000th row.
CREATE INDEX request_log_key_idx ON request_log (key_id, seq);
-- Retention: the oldest rows first.
CREATE INDEX request_log_at_idx ON request_log (at);
