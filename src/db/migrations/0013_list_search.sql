-- Operator lists and search (operator-api.md#lists): keyset pages and lookups by the codes people
-- type (an order's display id), without scanning a merchant's whole history.
CREATE INDEX orders_merchant_display_idx ON orders (merchant_id, display_id);
CREATE INDEX orders_display_idx ON orders (display_id);
CREATE INDEX merchants_created_idx ON merchants (created_at, id);
CREATE INDEX merchants_pdv_idx ON merchants (pdv_external_id) WHERE pdv_external_id IS NOT NULL;
