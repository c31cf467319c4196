// The webhooks module as other modules see it (architecture.md#module-boundaries: modules read each other through
// index.ts). `enqueueForEvent` is the EventListener the events service calls in its transaction;
// `listOrderDeliveries` feeds the operator order timeline; `webhookForwardingRoutes` serve
// `cleaver listen` in the sandbox.
export { webhookForwardingRoutes } from './webhook-forwarding-routes.js';
export { signWebhook } from './webhook-signing.js';
export {
  DeliveryIdParams,
  DeliveryListQuery,
  DeliveryStatus,
  EndpointHealth,
  RecoverBody,
  RequeueAnswer,
  WebhookAttempt,
  WebhookDelivery,
} from './webhooks-schemas.js';
export {
  createWebhooksService,
  type DeliveryView,
  deliveryNotFound,
  NEW_EVENT_PATH,
  ORDER_UPDATE_PATH,
  type WebhooksService,
} from './webhooks-service.js';
