// What other modules, plugins and app.ts may use of auth (architecture.md#module-boundaries).

export type { IntegrationKeyRow } from './auth-repository.js';
export {
  type AuthService,
  createAuthService,
  invalidClientCredentials,
  TOKEN_LIFETIME_SEC,
  type TokenResponse,
} from './auth-service.js';
export { bearerToken } from './bearer-token.js';
export { oauthRoutes } from './oauth-routes.js';
export {
  DEFAULT_PROFILE,
  INTEGRATION_PROFILES,
  type IntegrationProfile,
  IntegrationProfileSchema,
  isOpenDelivery,
} from './profiles.js';
export type { Principal } from './token-cache.js';
