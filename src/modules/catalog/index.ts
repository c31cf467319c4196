// What other modules may use of the catalog (architecture.md#module-boundaries: never its tables directly).

export { AVAILABILITY_DESCRIPTION } from './availability-routes.js';
export {
  AVAILABILITY_ITEMS_MAX,
  type Availability,
  type AvailabilityInput,
  type ItemAvailability,
  PAUSE_REASONS,
  type StockLine,
} from './catalog-availability.js';
export { type Cut, type CutInput, findCutsOfProducts } from './catalog-cuts.js';
export { findProductsByRefs, type ProductRow } from './catalog-repository.js';
export { catalogRoutes } from './catalog-routes.js';
export {
  AvailabilityAnswer,
  AvailabilityBody,
  CutView,
  categoryView,
  ItemAvailabilityView,
  PDV_EXTERNAL_ID,
  productView,
  productViewFields,
  SyncView,
} from './catalog-schemas.js';
export { type CatalogService, createCatalogService } from './catalog-service.js';
export { UPLOAD_BODY_VARIANTS } from './catalog-upload-schema.js';
