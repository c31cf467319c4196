export {
  ACK_BATCH_LIMIT,
  ALREADY_DONE_TITLE,
  createPosClient,
  NO_REQUEST_TITLE,
  type PollOptions,
  type PosClient,
  type PosClientOptions,
  toAcknowledgment,
  type UploadCatalogOptions,
} from './client.js';
export {
  createEventDeduplicator,
  createMemoryDeduplicationStore,
  type DeduplicationStore,
  type EventDeduplicator,
  type EventDeduplicatorOptions,
  eventOccurrenceKey,
  type MemoryDeduplicationStore,
  type MemoryStoreOptions,
  type OccurrenceFields,
} from './dedupe.js';
export {
  CatalogSyncTimeoutError,
  CleaverApiError,
  CleaverAuthError,
  CleaverNetworkError,
  type NetworkFailureStage,
  WebhookVerificationError,
} from './errors.js';
export {
  type EventHandler,
  type EventLoopErrorContext,
  type EventLoopOptions,
  type EventLoopSummary,
  type FailureDecision,
  isPermanentFailure,
  runEventLoop,
} from './event-loop.js';
export {
  abortableSleep,
  backoffDelay,
  type HttpOptions,
  parseRetryAfter,
  type RetryInfo,
  type RetryOptions,
  type SleepFn,
} from './http.js';
export type { Logger, LogLevel } from './logger.js';
export { createLogisticsClient, type LogisticsClient, type LogisticsClientOptions, signBody } from './logistics.js';
export {
  type AuditEntry,
  type AuditFilter,
  type CreatedIntegrationKey,
  type CreatedLogisticsApp,
  type CreatedOperatorToken,
  createOperatorClient,
  type FeedItem,
  type FeedQuery,
  type IntegrationKeySummary,
  type IntegrationProfile,
  type OperatorAccount,
  type OperatorClient,
  type OperatorClientOptions,
  type OperatorMerchant,
  type OperatorRole,
  type ProductCut,
  type SandboxOrderRequest,
} from './operator.js';
export * from './types.js';
export { type HeaderBag, type VerifiedWebhook, type VerifyWebhookOptions, verifyWebhook } from './webhooks.js';
