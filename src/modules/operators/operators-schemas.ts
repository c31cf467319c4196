// Bodies and answers of the operator-management and audit routes; response schemas are
// allow-lists (no password hash, token hash or TOTP secret can be serialised by accident).
import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';
import { RoleSchema } from './roles.js';

export const OperatorView = Type.Object({
  id: Uuid(),
  email: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  disabled: Type.Boolean(),
  disabledAt: Type.Union([DateTime(), Type.Null()]),
  passwordSet: Type.Boolean(),
  totpEnabled: Type.Boolean(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const CreateOperatorBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 320 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  role: RoleSchema,
  password: Type.Optional(Type.String({ maxLength: 1024 })),
});

export const UpdateOperatorBody = Type.Object({
  role: Type.Optional(RoleSchema),
  disabled: Type.Optional(Type.Boolean()),
});

export const SetPasswordBody = Type.Object({ password: Type.String({ maxLength: 1024 }) });

export const OperatorIdParams = Type.Object({ id: Uuid() });
export const TokenParams = Type.Object({ id: Uuid(), tokenId: Uuid() });

export const TokenView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  role: RoleSchema,
  createdAt: DateTime(),
  expiresAt: DateTime(),
  lastUsedAt: Type.Union([DateTime(), Type.Null()]),
  revokedAt: Type.Union([DateTime(), Type.Null()]),
  active: Type.Boolean(),
});

export const CreateTokenBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  role: Type.Optional(RoleSchema),
  expiresAt: Type.Optional(DateTime()),
});

export const CreatedToken = Type.Object({
  id: Uuid(),
  token: Type.String({ description: 'Shown only in this answer; only a hash is kept' }),
  role: RoleSchema,
  expiresAt: DateTime(),
  name: Type.String(),
  createdAt: DateTime(),
});

export const RevokedAccess = Type.Object({ sessions: Type.Integer(), tokens: Type.Integer() });

export const Me = Type.Object({
  actor: Type.String(),
  actorType: Type.Enum(['bootstrap', 'operator', 'token']),
  role: RoleSchema,
  operator: Type.Union([OperatorView, Type.Null()]),
  tokenId: Type.Union([Uuid(), Type.Null()]),
});

/** operator-api.md#lists: limit (default 100, at most 1000) and an opaque cursor. */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
};

export const AuditQuery = Type.Object({
  actor: Type.Optional(Type.String({ maxLength: 320 })),
  action: Type.Optional(Type.String({ maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9.]*$' })),
  since: Type.Optional(DateTime()),
  until: Type.Optional(DateTime()),
  ...PageQuery,
});

export const AuditEntry = Type.Object({
  id: Type.String(),
  at: DateTime(),
  actor: Type.String(),
  actorType: Type.Enum(['bootstrap', 'operator', 'token', 'anonymous']),
  operatorId: Type.Union([Uuid(), Type.Null()]),
  tokenId: Type.Union([Uuid(), Type.Null()]),
  role: Type.Union([Type.String(), Type.Null()]),
  channel: Type.Enum(['api', 'console']),
  action: Type.String(),
  target: Type.Record(Type.String(), Type.String()),
  details: Type.Object({}, { additionalProperties: true, description: 'What changed, as structured data.' }),
  result: Type.Object({
    status: Type.Integer(),
    outcome: Type.Enum(['success', 'failure']),
    reason: Type.Union([Type.String(), Type.Null()]),
  }),
  ip: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
});
