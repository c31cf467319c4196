-- `cleaver listen --forward-to URL` (sandbox only): while a developer's CLI listens for a
-- merchant, that merchant's webhook deliveries are handed to the CLI (which POSTs them to a
-- local URL and reports each answer as the attempt) instead of being sent by the workers to the
-- registered URL. A session lasts as long as the CLI keeps asking (`until` moves forward on every
-- long-poll); a CLI that disappears simply lets it lapse and the workers take over again.
CREATE TABLE webhook_forwarding (
  merchant_id  uuid PRIMARY KEY REFERENCES merchants (id) ON DELETE CASCADE,
  -- The integration key the CLI listens with: signs when no webhook URL was ever registered.
  key_id       uuid NOT NULL,
  forward_to   text NOT NULL,
  started_at   timestamptz NOT NULL,
  until        timestamptz NOT NULL
);
