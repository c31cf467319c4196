-- Tracing (src/lib/tracing.ts; docs/operations.md, "Tracing"): the W3C trace context of the
-- request that wrote each row which later work picks up (an order event and its occurrence, a
-- webhook delivery, a feed item), so that the delivery, the NATS publish and the POS's poll and
-- acknowledgement continue or link to the order's trace. NULL while tracing is off. Nullable
-- columns without a default: adding them rewrites nothing.
ALTER TABLE order_events ADD COLUMN traceparent text;
ALTER TABLE order_event_log ADD COLUMN traceparent text;
ALTER TABLE webhook_deliveries ADD COLUMN traceparent text;
ALTER TABLE feed_items ADD COLUMN traceparent text;
