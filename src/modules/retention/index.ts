// Retention (D30): prunes what no one reads any more, through the owning modules.
export { createRetention, type Retention, type RetentionStep } from './retention-service.js';
