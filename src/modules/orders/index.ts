// What other modules may use of orders (architecture.md#module-boundaries: never its tables directly).

export {
  ORDER_STATUSES,
  type OrderStatus,
  type PlatformAction,
  type PlatformActionState,
  platformActions,
} from './order-state.js';
export { toOperatorOrderView, toOrderView } from './order-view.js';
export {
  DEFAULT_WEIGHING_TOLERANCE_PERCENT,
  type OrderWeighed,
  WEIGHT_DECIMALS,
  type WeighingListener,
} from './order-weighing.js';
export type { OrderRow } from './orders-repository.js';
export { ordersRoutes } from './orders-routes.js';
export {
  CreateOrderBody,
  OperatorOrder,
  OperatorOrderSummary,
  Order,
  OrderWeighingView,
  TrackingBody,
  WeighingDecisionBody,
  WeighingView,
} from './orders-schemas.js';
export { createOrdersService, type OrdersService, type PendingWeighingAnswer } from './orders-service.js';
export { ORDERING_APP_VERSIONS, versionsRoutes } from './versions-routes.js';
export type { DecisionListener, OrderWeighingState } from './weighing-approval-writes.js';
