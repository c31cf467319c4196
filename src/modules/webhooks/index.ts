// The webhooks module as other modules see it (ARCHITECTURE.md: modules read each other through
// index.ts). `enqueueForEvent` is the EventListener the events service calls in its transaction;
// `listOrderDeliveries` feeds the operator order timeline.
export { signWebhook } from './webhook-signing.js';
export { WebhookAttempt, WebhookDelivery } from './webhooks-schemas.js';
export {
  createWebhooksService,
  type DeliveryView,
  deliveryNotFound,
  ORDER_UPDATE_PATH,
  type WebhooksService,
} from './webhooks-service.js';
