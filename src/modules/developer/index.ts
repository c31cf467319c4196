// The POS developer's view of its own integration: routes only, over the usage
// module's request log and the webhooks module's endpoint health and attempts.
export { developerRoutes } from './developer-routes.js';
