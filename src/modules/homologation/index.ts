// What app.ts, services.ts, the console and the CLI may use of homologation (architecture.md#module-boundaries).
export { allRequiredPass, CRITERIA, type Criterion } from './criteria.js';
export { operatorHomologationRoutes, posHomologationRoutes } from './homologation-routes.js';
export { RunView } from './homologation-schemas.js';
export {
  CATALOG_FAIL_REASON,
  createHomologationService,
  type HomologationService,
  RUN_SCENARIOS,
  type RunReport,
} from './homologation-service.js';
export { DEFAULT_TIMINGS, type Timings, timingEnvProblem } from './homologation-timings.js';
export { createObserver, type Observer } from './observer.js';
export { canonicalJson, createReportSigner, verifyReport } from './report-signing.js';
