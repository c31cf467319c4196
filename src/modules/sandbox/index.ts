// What app.ts and other modules may use of the sandbox (architecture.md#module-boundaries).

export { operatorSandboxRoutes, posSandboxRoutes } from './sandbox-routes.js';
export { PlayScenarioBody, ScenarioPlayed, ScenarioSummary } from './sandbox-schemas.js';
export { createSandboxService, SANDBOX_LOGISTICS_APP_NAME, type SandboxService } from './sandbox-service.js';
export { NO_CATALOG_TITLE, planOrder } from './scenario-plan.js';
export {
  eventOfStep,
  findScenario,
  promisedEvents,
  SCENARIO_NAMES,
  SCENARIOS,
  type ScenarioDefinition,
} from './scenarios.js';
