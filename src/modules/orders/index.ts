// What other modules may use of orders (ARCHITECTURE.md: never its tables directly).
export { toOperatorOrderView, toOrderView } from './order-view.js';
export type { OrderRow } from './orders-repository.js';
export { OperatorOrder, OperatorOrderSummary, Order } from './orders-schemas.js';
export { createOrdersService, type OrdersService } from './orders-service.js';
