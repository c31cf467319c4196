-- Homologation runs (operator-api.md#homologation): a sandbox run that plays scenarios against an
-- integration key's merchant, watches what the POS does and keeps the graded, signed report.
CREATE TABLE homologation_runs (
  id           uuid PRIMARY KEY,
  key_id       uuid NOT NULL REFERENCES integration_keys (id) ON DELETE CASCADE,
  merchant_id  uuid NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  status       text NOT NULL CHECK (status IN ('RUNNING', 'PASSED', 'FAILED', 'CANCELLED')),
  -- The timings of this run: the defaults with the body's overrides applied.
  timings      jsonb NOT NULL,
  started_at   timestamptz NOT NULL,
  finished_at  timestamptz,
  -- [{id, title, rule, required, result, evidence}], written when the run finishes.
  criteria     jsonb NOT NULL DEFAULT '[]',
  -- The orders the run placed, with the delivery code the customer would tell the courier.
  orders       jsonb NOT NULL DEFAULT '[]',
  -- Ed25519 signature (base64) of the canonical report, written with the criteria.
  signature    text,
  -- The next catalog upload of the merchant during the run ends in FAIL (spec 3.2); set when used.
  catalog_fail_armed boolean NOT NULL DEFAULT true,
  catalog_failed_at  timestamptz
);
-- One RUNNING run per key: a second start is a 409.
CREATE UNIQUE INDEX homologation_runs_running_idx ON homologation_runs (key_id) WHERE status = 'RUNNING';
CREATE INDEX homologation_runs_key_idx ON homologation_runs (key_id, started_at DESC);
