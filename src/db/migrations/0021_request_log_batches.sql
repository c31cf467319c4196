-- The request log (migration 0020) stored one row per request. On the embedded database a row
-- costs 14–18 µs of CPU to insert with its two index entries, whatever the batch size: as much as
-- the request it describes (docs/adr/0014-request-log-in-batches.md). It now stores one row per key
-- and flush: the requests of that key written together, as a JSON array, oldest first. A key
-- that asks a thousand times a second costs one row a second; a quiet key one row a request, as
-- before. Reads unpack the newest rows of the key; positions are seq * 1024 + the request's
-- index in its row (a batch holds at most 1,000 requests).
--
-- The old rows are carried over, one per batch. No primary key beyond (key_id, seq) and no
-- foreign key: rows are only found by key and position or by age, and a deleted key's rows
-- leave with age (D30).
CREATE TABLE request_log_batches (
  seq          bigserial NOT NULL,
  key_id       uuid NOT NULL,
  merchant_id  uuid NOT NULL,
  -- The times of the batch's oldest and newest requests; retention removes a batch once its
  -- newest request is past 24 hours, and reads skip the older requests of a batch they keep.
  first_at     timestamptz NOT NULL,
  last_at      timestamptz NOT NULL,
  -- How many requests the batch holds (1 to 1,000): the trim and the reads count with it.
  entries      integer NOT NULL CHECK (entries BETWEEN 1 AND 1000),
  -- [[at (epoch ms), requestId, method, path, status, durationMs, errorTitle, body, bodyTruncated], …]
  -- as JSON text, oldest first: modules/usage/request-log-batch.ts reads and writes it.
  requests     text NOT NULL,
  PRIMARY KEY (key_id, seq)
);
-- Retention: the oldest batches first.
CREATE INDEX request_log_batches_last_at_idx ON request_log_batches (last_at);

INSERT INTO request_log_batches (key_id, merchant_id, first_at, last_at, entries, requests)
SELECT key_id, merchant_id, at, at, 1,
       json_build_array(json_build_array(
         floor(extract(epoch FROM at) * 1000)::bigint, request_id, method, path, status, duration_ms, error_title,
         body, CASE WHEN body_truncated THEN 1 ELSE 0 END))::text
  FROM request_log
 ORDER BY seq;

DROP TABLE request_log;
