// The operator web console (issue 8), registered by app.ts under /console.
export { type ConsoleDeps, consoleRoutes } from './console-app.js';
