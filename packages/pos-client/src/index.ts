export {
  ACK_BATCH_LIMIT,
  createPosClient,
  type PollOptions,
  type PosClient,
  type PosClientOptions,
  toAcknowledgment,
  type UploadCatalogOptions,
} from './client.js';
export {
  CatalogSyncTimeoutError,
  CleaverApiError,
  CleaverAuthError,
  CleaverNetworkError,
  WebhookVerificationError,
} from './errors.js';
export {
  type EventHandler,
  type EventLoopOptions,
  type EventLoopSummary,
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
export { createLogisticsClient, type LogisticsClient, type LogisticsClientOptions, signBody } from './logistics.js';
export {
  type CreatedIntegrationKey,
  type CreatedLogisticsApp,
  createOperatorClient,
  type OperatorClient,
  type OperatorClientOptions,
  type OperatorMerchant,
  type SandboxOrderRequest,
} from './operator.js';
export * from './types.js';
export { type HeaderBag, type VerifiedWebhook, type VerifyWebhookOptions, verifyWebhook } from './webhooks.js';
