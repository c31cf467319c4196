// What other modules may use of the catalog (architecture.md#module-boundaries: never its tables directly).

export { type Cut, type CutInput, findCutsOfProducts } from './catalog-cuts.js';
export { findProductsByRefs, type ProductRow } from './catalog-repository.js';
export { catalogRoutes } from './catalog-routes.js';
export {
  CutView,
  categoryView,
  PDV_EXTERNAL_ID,
  productView,
  productViewFields,
  SyncView,
} from './catalog-schemas.js';
export { type CatalogService, createCatalogService } from './catalog-service.js';
export { UPLOAD_BODY_VARIANTS } from './catalog-upload-schema.js';
