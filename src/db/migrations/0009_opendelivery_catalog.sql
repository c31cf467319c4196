-- Open Delivery catalog (D29): the change notification `POST /v1/merchantUpdate` is queued like an
-- upload, and a pull may bring either our MERCHANT upload body or an Open Delivery Merchant.

-- NOTIFY: an Open Delivery notification (merchantStatus and/or changed objects); its entityType
-- is one of Open Delivery's, which include ours.
ALTER TABLE catalog_syncs DROP CONSTRAINT catalog_syncs_source_check;
ALTER TABLE catalog_syncs ADD CONSTRAINT catalog_syncs_source_check CHECK (source IN ('UPLOAD', 'PULL', 'NOTIFY'));
ALTER TABLE catalog_syncs DROP CONSTRAINT catalog_syncs_entity_type_check;
ALTER TABLE catalog_syncs ADD CONSTRAINT catalog_syncs_entity_type_check CHECK (entity_type IN (
  'MERCHANT', 'ITEM', 'ITEM_OFFER',
  'BASIC_INFO', 'SERVICE', 'MENU', 'CATEGORY', 'OPTION_GROUP', 'OPTION', 'AVAILABILITY'));
-- How the payload is to be read: our upload shapes, or Open Delivery's. A constant default adds
-- the column without rewriting the table.
ALTER TABLE catalog_syncs ADD COLUMN format text NOT NULL DEFAULT 'cleaver'
  CHECK (format IN ('cleaver', 'opendelivery'));

-- The last pulled answer that was applied with SUCCESS, per merchant: its ETag goes out as
-- If-None-Match and its SHA-256 is compared with the next answer, so an unchanged menu is not
-- processed again. Valid only while the catalog is still the one that answer produced
-- (catalog_version = catalog_states.version) and the address is the same.
CREATE TABLE catalog_pull_states (
  merchant_id     uuid PRIMARY KEY REFERENCES merchants (id) ON DELETE CASCADE,
  url             text NOT NULL,
  etag            text,
  body_sha256     text NOT NULL,
  catalog_version bigint NOT NULL,
  sync_id         uuid NOT NULL,
  applied_at      timestamptz NOT NULL
);
