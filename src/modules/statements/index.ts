// What other modules may use of statements (D45; architecture.md#module-boundaries: never its
// tables directly). The events module calls `onOrderEvent` in each event's transaction.

export { adminStatementsRoutes } from './admin-statements-routes.js';
export { nextPeriod, type Period, periodContaining, SETTLEMENT_CYCLES, type SettlementCycle } from './periods.js';
export {
  type LineView,
  parseSettlementSettings,
  type SettlementSettings,
  type StatementView,
} from './statement-views.js';
export { statementsRoutes } from './statements-routes.js';
export { Statement, StatementLine, StatementTotals } from './statements-schemas.js';
export { createStatementsService, type StatementsService } from './statements-service.js';
export { commissionOn, NET_SIGN, TOTAL_FIELDS, type Totals, totalsOf } from './totals.js';
