-- Operator accounts, their console sessions and personal API tokens, login throttling, and the
-- append-only audit log (operator-api.md#operators-and-audit, docs/security.md).

CREATE TABLE operators (
  id               uuid PRIMARY KEY,
  email            text NOT NULL,
  name             text NOT NULL,
  role             text NOT NULL CHECK (role IN ('admin', 'support', 'viewer')),
  -- Argon2id PHC string; NULL: no password (the operator can only use personal tokens).
  password_hash    text,
  -- TOTP (RFC 6238) secret sealed with AES-256-GCM: it must be read back to check codes.
  totp_secret_enc  text,
  -- An enrolment started but not yet confirmed with a first code.
  totp_pending_enc text,
  -- The last time step whose code was accepted: a code is good once (replay protection).
  totp_last_step   bigint,
  disabled_at      timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE UNIQUE INDEX operators_email_idx ON operators (lower(email));

-- Console sessions live here so that they can be revoked (logout, disable, revoke access). The
-- cookie carries the session id; only its SHA-256 is stored. operator_id NULL: a session opened
-- with CLEAVER_ADMIN_TOKEN (bootstrap).
CREATE TABLE operator_sessions (
  id_hash      text PRIMARY KEY,
  operator_id  uuid REFERENCES operators (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz,
  ip           text,
  user_agent   text
);
CREATE INDEX operator_sessions_operator_idx ON operator_sessions (operator_id) WHERE revoked_at IS NULL;

-- Personal tokens of the operator API. The token (`cop_<id>_<random>`) is shown once; only a
-- keyed hash is kept. Its role is at most the operator's (checked again on every use).
CREATE TABLE operator_tokens (
  id           uuid PRIMARY KEY,
  operator_id  uuid NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  name         text NOT NULL,
  role         text NOT NULL CHECK (role IN ('admin', 'support', 'viewer')),
  token_hash   text NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX operator_tokens_operator_idx ON operator_tokens (operator_id, created_at);

-- Failed logins per account (`account:<email>`) and per client address (`ip:<address>`), for the
-- lockout with backoff. Shared by every instance, so a lockout holds whichever one is asked.
CREATE TABLE login_throttles (
  key             text PRIMARY KEY,
  failures        integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  locked_until    timestamptz
);

-- Who did what, from where, with which result. Never holds a secret: the writer takes ids and an
-- allow-list of plain fields only.
CREATE TABLE audit_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at          timestamptz NOT NULL,
  -- bootstrap | operator | token | anonymous
  actor_kind  text NOT NULL,
  -- operator email, `bootstrap-token` or `anonymous`
  actor       text NOT NULL,
  operator_id uuid,
  token_id    uuid,
  role        text,
  channel     text NOT NULL CHECK (channel IN ('api', 'console')),
  action      text NOT NULL,
  target      jsonb NOT NULL DEFAULT '{}',
  details     jsonb NOT NULL DEFAULT '{}',
  status_code integer NOT NULL,
  outcome     text NOT NULL CHECK (outcome IN ('success', 'failure')),
  reason      text,
  ip          text,
  user_agent  text
);
CREATE INDEX audit_log_at_idx ON audit_log (at, id);
CREATE INDEX audit_log_actor_idx ON audit_log (actor, id);
CREATE INDEX audit_log_action_idx ON audit_log (action, id);

-- Append-only, enforced by the database itself: UPDATE, DELETE and TRUNCATE are refused whoever
-- asks. Retention of audit rows, if it is ever wanted, must go through a dedicated function that
-- is the only way to remove old rows (e.g. a SECURITY DEFINER function that deletes rows older
-- than a cutoff under a session flag this trigger checks), never by relaxing this trigger.
CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = '42501';
END;
$$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
