// Bodies and answers of the operator-management and audit routes; response schemas are
// allow-lists (no password hash, token hash or TOTP secret can be serialised by accident).
import { Type } from 'typebox';
import { DateTime, described, Uuid } from '../../lib/schemas.js';
import { RoleSchema } from './roles.js';

export const OperatorView = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  email: Type.String({ description: 'An email address.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  role: described(RoleSchema, 'viewer (read), support (act on orders), or admin (everything).'),
  disabled: Type.Boolean({ description: 'Whether the account is disabled.' }),
  disabledAt: Type.Union([DateTime(), Type.Null()], { description: 'When it was disabled, or null.' }),
  passwordSet: Type.Boolean({ description: 'Whether it can log in to the console with a password.' }),
  totpEnabled: Type.Boolean({ description: 'Whether it has a one-time-code device.' }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  updatedAt: DateTime({ description: 'When it last changed.' }),
});

export const CreateOperatorBody = Type.Object({
  email: Type.String({ description: 'An email address.', minLength: 3, maxLength: 320 }),
  name: Type.String({ description: 'Its name as shown to people.', minLength: 1, maxLength: 200 }),
  role: described(RoleSchema, 'viewer (read), support (act on orders), or admin (everything).'),
  password: Type.Optional(Type.String({ description: 'At least 12 characters.', maxLength: 1024 })),
});

export const UpdateOperatorBody = Type.Object({
  role: Type.Optional(described(RoleSchema, 'viewer (read), support (act on orders), or admin (everything).')),
  disabled: Type.Optional(Type.Boolean({ description: 'Whether the account is disabled.' })),
});

export const SetPasswordBody = Type.Object({
  password: Type.String({ description: 'At least 12 characters.', maxLength: 1024 }),
});

export const OperatorIdParams = Type.Object({ id: Uuid() });
export const TokenParams = Type.Object({ id: Uuid(), tokenId: Uuid() });

export const TokenView = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  role: described(RoleSchema, 'viewer (read), support (act on orders), or admin (everything).'),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  expiresAt: DateTime({ description: 'When it stops working, or null (never).' }),
  lastUsedAt: Type.Union([DateTime(), Type.Null()], { description: 'Last use, or null.' }),
  revokedAt: Type.Union([DateTime(), Type.Null()], { description: 'When it was revoked, or null.' }),
  active: Type.Boolean({ description: 'Whether it works.' }),
});

export const CreateTokenBody = Type.Object({
  name: Type.Optional(Type.String({ description: 'Its name as shown to people.', maxLength: 200 })),
  role: Type.Optional(described(RoleSchema, 'viewer (read), support (act on orders), or admin (everything).')),
  expiresAt: Type.Optional(DateTime()),
});

export const CreatedToken = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  token: Type.String({ description: 'Shown only in this answer; only a hash is kept' }),
  role: described(RoleSchema, 'viewer (read), support (act on orders), or admin (everything).'),
  expiresAt: DateTime({ description: 'When it stops working, or null (never).' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
});

export const RevokedAccess = Type.Object({
  sessions: Type.Integer({ description: 'Console sessions ended.' }),
  tokens: Type.Integer({ description: 'Tokens revoked.' }),
});

export const Me = Type.Object({
  actor: Type.String({ description: 'Who did it (email, or “bootstrap token”).' }),
  actorType: Type.Enum(['bootstrap', 'operator', 'token'], { description: 'operator or bootstrap.' }),
  role: described(RoleSchema, 'viewer (read), support (act on orders), or admin (everything).'),
  operator: Type.Union([OperatorView, Type.Null()], {
    description: 'The operator account, or null for the bootstrap token.',
  }),
  tokenId: Type.Union([Uuid(), Type.Null()], { description: 'The personal operator token used, or null.' }),
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
  id: Type.String({ description: 'The record’s unique id.' }),
  at: DateTime({ description: 'When it happened.' }),
  actor: Type.String({ description: 'Who did it (email, or “bootstrap token”).' }),
  actorType: Type.Enum(['bootstrap', 'operator', 'token', 'anonymous'], { description: 'operator or bootstrap.' }),
  operatorId: Type.Union([Uuid(), Type.Null()], {
    description: 'The operator account, or null for the bootstrap token.',
  }),
  tokenId: Type.Union([Uuid(), Type.Null()], { description: 'The personal operator token used, or null.' }),
  role: Type.Union([Type.String(), Type.Null()], {
    description: 'viewer (read), support (act on orders), or admin (everything).',
  }),
  channel: Type.Enum(['api', 'console'], { description: 'api or console.' }),
  action: Type.String({ description: 'What was done (e.g. merchant.create).' }),
  target: Type.Record(Type.String(), Type.String(), { description: 'What it applies to.' }),
  details: Type.Object({}, { additionalProperties: true, description: 'What changed, as structured data.' }),
  result: Type.Object(
    {
      status: Type.Integer({ description: 'Its current status.' }),
      outcome: Type.Enum(['success', 'failure'], { description: 'ok or refused.' }),
      reason: Type.Union([Type.String(), Type.Null()], { description: 'Why, in words.' }),
    },
    { description: 'How it ended.' },
  ),
  ip: Type.Union([Type.String(), Type.Null()], { description: 'From where.' }),
  userAgent: Type.Union([Type.String(), Type.Null()], { description: 'With what client.' }),
});
