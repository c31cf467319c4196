-- Keyset pages of the other operator lists (operator-api.md#lists): every page is an index range
-- scan that starts at the cursor, whatever the table's size or how deep the page is.
-- Orders newest first, of every merchant or of one, optionally of one status.
CREATE INDEX orders_created_id_idx ON orders (created_at, id);
CREATE INDEX orders_merchant_created_id_idx ON orders (merchant_id, created_at, id);
CREATE INDEX orders_merchant_status_created_idx ON orders (merchant_id, status, created_at, id);
CREATE INDEX orders_status_created_idx ON orders (status, created_at, id);
-- A merchant's webhook deliveries, newest first (with a status, webhook_deliveries_merchant_idx serves).
CREATE INDEX webhook_deliveries_merchant_seq_idx ON webhook_deliveries (merchant_id, seq);
CREATE INDEX logistics_apps_created_idx ON logistics_apps (created_at, id);
-- The superseded (merchant_id, created_at DESC) index: the (merchant_id, created_at, id) one above
-- serves every query it served, scanned backwards.
DROP INDEX orders_merchant_created_idx;
-- The console's catalog page: a merchant's products by name, a page at a time.
CREATE INDEX products_merchant_name_idx ON products (merchant_id, name, id);
-- The console's deliveries page across merchants, newest first, optionally of one status.
CREATE INDEX webhook_deliveries_status_seq_idx ON webhook_deliveries (status, seq);
-- Retention (D30) deletes a finished order's events; their receipts go by ON DELETE CASCADE,
-- which looks receipts up by (order_id, event_type). The primary key leads with key_id, so
-- without this index every cascaded delete scanned the whole table: a batch grew with history
-- (bench/retention.ts, docs/adr/0006-retention-batch-deletes.md).
CREATE INDEX event_receipts_order_idx ON event_receipts (order_id, event_type);
