-- Merchants, their integration keys and onboarding settings, token revocations, logistics apps.

CREATE TABLE merchants (
  id                      uuid PRIMARY KEY,
  name                    text NOT NULL,
  status                  text NOT NULL DEFAULT 'AVAILABLE' CHECK (status IN ('AVAILABLE', 'UNAVAILABLE')),
  pdv_external_id         text,
  orders_webhook_url      text,
  -- D10: the integration key whose secret signs webhooks is the one that last registered the URL.
  webhook_key_id          uuid,
  -- D11: a 410 from the receiver disables delivery until the merchant registers again.
  webhook_disabled_at     timestamptz,
  get_merchant_base_url   text,
  get_merchant_api_key_enc text,
  onboarded_at            timestamptz,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE integration_keys (
  id           uuid PRIMARY KEY,
  merchant_id  uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  name         text NOT NULL,
  -- keyed hash for verification; AES-256-GCM copy for webhook signing (D10)
  secret_hash  text NOT NULL,
  secret_enc   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  deleted_at   timestamptz
);
CREATE INDEX integration_keys_merchant_idx ON integration_keys (merchant_id) WHERE deleted_at IS NULL;

-- Every instance tails this table (by seq) to refuse revoked tokens within a second (D15).
CREATE TABLE auth_revocations (
  seq        bigserial PRIMARY KEY,
  jti        uuid,
  key_id     uuid,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (jti IS NOT NULL OR key_id IS NOT NULL)
);
CREATE INDEX auth_revocations_jti_idx ON auth_revocations (jti) WHERE jti IS NOT NULL;

CREATE TABLE logistics_apps (
  id             uuid PRIMARY KEY,
  name           text NOT NULL,
  -- HMAC key of the X-App-Signature (spec 5.2): needed in clear to verify, so stored encrypted.
  secret_enc     text NOT NULL,
  active         boolean NOT NULL DEFAULT true,
  created_at     timestamptz NOT NULL DEFAULT now(),
  deactivated_at timestamptz
);

CREATE TABLE logistics_app_merchants (
  app_id      uuid NOT NULL REFERENCES logistics_apps (id) ON DELETE CASCADE,
  merchant_id uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  PRIMARY KEY (app_id, merchant_id)
);
