-- D42: the event types an integration key opted in to beyond the default set (the integration
-- setting `extraEventTypes`; today only WEIGHING_DECIDED). Empty by default: no key receives a
-- type it did not ask for, because POS software maps unknown types badly (D39). A constant
-- default: adding the column rewrites nothing.
ALTER TABLE integration_keys ADD COLUMN extra_event_types text[] NOT NULL DEFAULT '{}';
