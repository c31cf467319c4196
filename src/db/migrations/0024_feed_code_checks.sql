-- The console's order timeline shows the delivery-code checks of an order, which only the platform
-- feed records (order DELIVERY_CODE_CHECKED items, D36). A partial index on those items alone:
-- the page finds an order's checks without reading the feed, and the feed's other writes (every
-- order event, every catalog change) pay nothing for it.
CREATE INDEX feed_items_code_checks_idx ON feed_items (order_id) WHERE type = 'DELIVERY_CODE_CHECKED';
