// The operator web console (architecture.md#operator-console), registered by app.ts under /console.
export { type ConsoleDeps, consoleRoutes } from './console-app.js';
