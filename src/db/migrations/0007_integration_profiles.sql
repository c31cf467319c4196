-- Integration profiles (D27, D28): each integration key speaks one dialect, `cleaver` (the spec)
-- or `opendelivery`. Constant defaults add the columns without rewriting the tables, and every
-- existing key and delivery stays `cleaver`, exactly as before.

ALTER TABLE integration_keys ADD COLUMN profile text NOT NULL DEFAULT 'cleaver'
  CHECK (profile IN ('cleaver', 'opendelivery'));

-- Every process keeps verified tokens, with their key's profile, in memory
-- (architecture.md#revocation-feed). A profile change is a row here, tailed by sequence beside
-- auth_revocations, so every process sees it within a second. A table of its own rather than a
-- new kind of auth_revocations row: a process still running the previous release reads every
-- auth_revocations row with a key_id as "this key was deleted" and would cut the key off.
CREATE TABLE key_profile_changes (
  seq        bigserial PRIMARY KEY,
  key_id     uuid NOT NULL,
  profile    text NOT NULL CHECK (profile IN ('cleaver', 'opendelivery')),
  -- Kept as long as a token lives, like a revocation; a process that could not read the feed
  -- for longer forgets every cached profile instead of trusting what it held.
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- D28: the dialect of a delivery's stored body, chosen at enqueue time from the profile of the
-- key that registered the webhook URL; it also decides the path (/v1/orderUpdate or /v1/newEvent).
ALTER TABLE webhook_deliveries ADD COLUMN profile text NOT NULL DEFAULT 'cleaver'
  CHECK (profile IN ('cleaver', 'opendelivery'));

-- D28: an opendelivery key acknowledges one occurrence (its eventId). The receipt records which
-- occurrence it stands for, so "acknowledge occurrence X" is checked on the receipt row itself
-- and can never acknowledge a newer occurrence that re-opened the event meanwhile (D1). Receipts
-- written before this migration have none; for them the event's current occurrence is compared.
ALTER TABLE event_receipts ADD COLUMN occurrence_id uuid;
