// What other modules may use of the catalog (ARCHITECTURE.md: never its tables directly).
export { findProductsByRefs, type ProductRow } from './catalog-repository.js';
export { type CatalogService, createCatalogService } from './catalog-service.js';
