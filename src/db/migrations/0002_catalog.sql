-- Catalog: categories, products, their links, media and cuts, and the catalog sync queue.
-- pdv_external_id is the POS code the uploads match on (spec 2.4, 2.5); NULL = made by hand.

CREATE TABLE categories (
  id              uuid PRIMARY KEY,
  merchant_id     uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  pdv_external_id text,
  name            text NOT NULL,
  "index"         integer NOT NULL DEFAULT 0,
  status          text NOT NULL DEFAULT 'AVAILABLE' CHECK (status IN ('AVAILABLE', 'UNAVAILABLE')),
  external_code   text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_id, pdv_external_id)
);
CREATE INDEX categories_merchant_idx ON categories (merchant_id, "index");

CREATE TABLE products (
  id               uuid PRIMARY KEY,
  merchant_id      uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  pdv_external_id  text,
  name             text NOT NULL,
  description      text NOT NULL DEFAULT '',
  -- D9: exact decimal BRL, never binary floating point
  price            numeric(14, 4) NOT NULL DEFAULT 0 CHECK (price >= 0),
  unit             text NOT NULL DEFAULT 'UN' CHECK (unit IN ('KG', 'UN')),
  status           text NOT NULL DEFAULT 'AVAILABLE' CHECK (status IN ('AVAILABLE', 'UNAVAILABLE')),
  -- spec 2.5: read-only through the interface; no upload writes it
  stock            numeric(14, 4) NOT NULL DEFAULT 0,
  external_code    text NOT NULL DEFAULT '',
  ean              text NOT NULL DEFAULT '',
  sku              text NOT NULL DEFAULT '',
  serving          integer NOT NULL DEFAULT 0,
  nutritional_info jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_id, pdv_external_id)
);
-- (merchant_id, pdv_external_id) UNIQUE above also serves "all products of a merchant": no second
-- merchant index to maintain on every bulk insert.

CREATE TABLE category_products (
  category_id uuid NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  product_id  uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  position    integer NOT NULL DEFAULT 0,
  PRIMARY KEY (category_id, product_id)
);
CREATE INDEX category_products_product_idx ON category_products (product_id);

CREATE TABLE product_media (
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  position   integer NOT NULL,
  url        text NOT NULL,
  PRIMARY KEY (product_id, position)
);

CREATE TABLE product_cuts (
  id         text NOT NULL,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  name       text NOT NULL,
  spice_id   text,
  spice_name text,
  position   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (product_id, id)
);

-- Catalog sync queue (spec 3.2, D16). The row is both the job and the history the operator reads:
-- PROCESSING from the 204 on; a worker claims the oldest PROCESSING row of a merchant with
-- FOR UPDATE SKIP LOCKED and a lease, applies it in one transaction and sets SUCCESS or FAIL.
-- A crashed worker's lease runs out and the upload is run again from the start.
CREATE TABLE catalog_syncs (
  id           uuid PRIMARY KEY,
  -- arrival order: a merchant's uploads are applied one at a time, in this order (D16)
  seq          bigserial NOT NULL UNIQUE,
  merchant_id  uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  source       text NOT NULL CHECK (source IN ('UPLOAD', 'PULL')),
  -- NULL only for a pull (D20) whose POS answer has not been fetched yet
  entity_type  text CHECK (entity_type IN ('MERCHANT', 'ITEM', 'ITEM_OFFER')),
  -- json, not jsonb: kept as sent (no re-encoding of a large catalog on the way in and out)
  payload      json,
  status       text NOT NULL DEFAULT 'PROCESSING' CHECK (status IN ('PROCESSING', 'SUCCESS', 'FAIL')),
  more_info    text,
  details      jsonb,
  attempts     integer NOT NULL DEFAULT 0,
  lease_owner  uuid,
  lease_until  timestamptz,
  received_at  timestamptz NOT NULL,
  started_at   timestamptz,
  finished_at  timestamptz
);
CREATE INDEX catalog_syncs_merchant_idx ON catalog_syncs (merchant_id, seq DESC);
-- The worker only ever looks at unfinished rows.
CREATE INDEX catalog_syncs_pending_idx ON catalog_syncs (merchant_id, seq) WHERE status = 'PROCESSING';

-- One row per merchant whose catalog changed: the version validates cached merchant records (D24)
-- in every process with one primary-key read; updated_at feeds lastUpdate (spec 2.3).
CREATE TABLE catalog_states (
  merchant_id uuid PRIMARY KEY REFERENCES merchants (id) ON DELETE CASCADE,
  version     bigint NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL
);
