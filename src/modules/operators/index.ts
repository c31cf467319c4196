// Operator accounts, roles, console sessions, personal tokens and the audit log: the module's
// public door (architecture.md#module-boundaries: other modules and the app import from here only).
export type { ActorKind, Channel } from './audit-repository.js';
export { auditRoutes, ndjson } from './audit-routes.js';
export {
  type AuditQuery,
  type AuditService,
  type AuditView,
  auditDetails,
  auditTarget,
  createAuditService,
} from './audit-service.js';
export { createLoginThrottle, type LoginThrottle, lockSeconds } from './login-throttle.js';
export { toOperatorView, toTokenView } from './operator-views.js';
export { operatorsRoutes } from './operators-routes.js';
// The bodies console forms post too (style.md#habits): the console reads its fields with the same schemas.
export { CreateOperatorBody, CreateTokenBody, SetPasswordBody, UpdateOperatorBody } from './operators-schemas.js';
export {
  type Actor,
  BOOTSTRAP_ACTOR,
  createOperatorsService,
  type OperatorsService,
  selfOf,
  TOKEN_DEFAULT_DAYS,
  TOKEN_MAX_DAYS,
} from './operators-service.js';
export { PASSWORD_MIN } from './password.js';
export { type Access, allows, isRole, type LadderRole, mayGrant, ROLES, type Role } from './roles.js';
export { createSessionsService, type LoginResult, type SessionsService } from './sessions-service.js';
export { newTotpSecret, totpCode, totpStep, totpUri } from './totp.js';
