-- Retention (docs/design/decisions.md#d30): indexes that let each pruning batch find its rows
-- directly, so that a batch costs the same whatever the size of the table.

-- Acknowledged receipts leave after a few hours: find the oldest acknowledgments first.
CREATE INDEX event_receipts_acknowledged_idx ON event_receipts (acknowledged_at) WHERE acknowledged_at IS NOT NULL;
-- Unacknowledged receipts expire after days: seq grows with time, so the oldest pending come first.
CREATE INDEX event_receipts_pending_seq_idx ON event_receipts (seq) WHERE acknowledged_at IS NULL;

-- Orders are business records and stay; the history around a finished one (event log, receipts,
-- tracking, logistics updates, webhook deliveries) goes after the horizon. history_pruned_at marks
-- an order done, so the next batch starts where the last one stopped.
ALTER TABLE orders ADD COLUMN history_pruned_at timestamptz;
CREATE INDEX orders_finished_unpruned_idx ON orders (updated_at)
  WHERE status IN ('DELIVERED', 'CONCLUDED', 'CANCELLED') AND history_pruned_at IS NULL;

-- Catalog syncs: payloads beyond the merchant's last ones, and summaries past their horizon.
CREATE INDEX catalog_syncs_payload_idx ON catalog_syncs (merchant_id, seq DESC) WHERE payload IS NOT NULL;
CREATE INDEX catalog_syncs_finished_idx ON catalog_syncs (finished_at) WHERE status <> 'PROCESSING';

-- Logistics requests whose updates are all gone are found by age.
CREATE INDEX logistics_requests_received_idx ON logistics_requests (received_at);
