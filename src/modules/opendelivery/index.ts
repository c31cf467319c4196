// Open Delivery v1.7.0 shapes (D27–D29) as TypeBox schemas, one file per area. The modules that
// speak Open Delivery import them from here.
export * from './api-schemas.js';
export * from './event-schemas.js';
export * from './merchant-schemas.js';
export * from './order-schemas.js';
