-- Webhook endpoint health (issue "Running for years"): per merchant, from its recent attempts,
-- kept up to date by the attempt writer so that reading it costs one row, and operator notices.

CREATE TABLE webhook_endpoint_health (
  merchant_id      uuid PRIMARY KEY REFERENCES merchants (id) ON DELETE CASCADE,
  -- From attempts only: healthy (the last attempt succeeded) or failing (since failing_since).
  -- Disabled is the merchant's webhook_disabled_at, read beside it.
  state            text NOT NULL CHECK (state IN ('healthy', 'failing')),
  failing_since    timestamptz,
  last_error       text,
  last_success_at  timestamptz,
  last_attempt_at  timestamptz NOT NULL,
  changed_at       timestamptz NOT NULL
);
CREATE INDEX webhook_endpoint_health_failing_idx ON webhook_endpoint_health (failing_since) WHERE state = 'failing';

-- Why a merchant's webhook is disabled: HTTP 410 (D11), or failing longer than the configured
-- period. Cleared with webhook_disabled_at when the merchant registers its URL again.
ALTER TABLE merchants ADD COLUMN webhook_disabled_reason text;

-- What operators should look at: a webhook endpoint that starts or stops failing or gets
-- disabled, a POS that goes offline… Newest first; read by the console and the operator API.
CREATE TABLE notices (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL,
  kind        text NOT NULL,
  merchant_id uuid REFERENCES merchants (id) ON DELETE CASCADE,
  message     text NOT NULL,
  detail      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX notices_merchant_idx ON notices (merchant_id, id DESC);
