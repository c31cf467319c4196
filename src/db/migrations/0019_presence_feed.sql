-- D36: `merchant PRESENCE_CHANGED` feed items. Presence is computed on read from last-seen times;
-- the worker's presence check records here the state it last announced for each key, and writes
-- an item when the computed state differs from it (compare-and-set on this column, in the item's
-- transaction: two workers never announce one change twice). NULL: nothing announced yet.
ALTER TABLE key_presence ADD COLUMN feed_state text CHECK (feed_state IN ('online', 'late', 'offline'));
