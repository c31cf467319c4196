// Rows → API objects, in one place (snake_case rows, camelCase answers).
import type { OperatorRow, TokenRow } from './operators-repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toOperatorView = (o: OperatorRow) => ({
  id: o.id,
  email: o.email,
  name: o.name,
  role: o.role,
  disabled: o.disabled_at !== null,
  disabledAt: iso(o.disabled_at),
  passwordSet: o.password_hash !== null,
  totpEnabled: o.totp_secret_enc !== null,
  createdAt: o.created_at.toISOString(),
  updatedAt: o.updated_at.toISOString(),
});

export const toTokenView = (t: TokenRow, now: Date) => ({
  id: t.id,
  name: t.name,
  role: t.role,
  createdAt: t.created_at.toISOString(),
  expiresAt: t.expires_at.toISOString(),
  lastUsedAt: iso(t.last_used_at),
  revokedAt: iso(t.revoked_at),
  active: t.revoked_at === null && t.expires_at > now,
});
