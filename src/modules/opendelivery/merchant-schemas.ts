// Open Delivery v1.7.0, merchant side (D27–D29): the `Merchant` a POS hosts at `GET /v1/merchant`
// and the `MerchantUpdate` notification it posts to `POST /v1/merchantUpdate`, as TypeBox
// schemas written from the standard's descriptions. They say what a conforming body looks like
// (OpenAPI, the sandbox POS and the tests' fixtures are checked against them); the catalog reads
// incoming bodies leniently and reports object by object what it cannot use
// (catalog/od-merchant-plan.ts), so one bad item never refuses a whole menu.
//
// Open Delivery allows fields it does not list, so no object here forbids additional properties.
// Long enumerations of the standard that nothing here acts on (allergens, merchant categories,
// card brands) are kept as plain strings.
import { type Static, Type } from 'typebox';
import { described } from '../../lib/schemas.js';

const Id = (description: string) => Type.String({ format: 'uuid', description });
const Availability = Type.Enum(['AVAILABLE', 'UNAVAILABLE']);

/** BRL and the like: `{value, currency}`; value has at most 4 decimal places. */
export const OdPrice = Type.Object({
  value: Type.Number(),
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
});

/** The price of an offer or an option: the actual value and the original one (discounts). */
export const OdItemPrice = Type.Object({
  value: Type.Number(),
  originalValue: Type.Number(),
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
});

export const OdImage = Type.Object({
  URL: Type.String({ format: 'uri' }),
  'CRC-32': Type.Optional(Type.String()),
});

export const OdImageWithType = Type.Object({
  URL: Type.String({ format: 'uri' }),
  'CRC-32': Type.Optional(Type.String()),
  type: Type.Enum(['MAIN', 'THUMB']),
});

const Time = () => Type.String({ description: 'time of day, e.g. 10:00:00.000Z' });
export const OdTimePeriods = Type.Object({ startTime: Time(), endTime: Time() });

export const OdHours = Type.Object({
  dayOfWeek: Type.Array(Type.Enum(['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'])),
  timePeriods: OdTimePeriods,
});

/** The start of every Open Delivery address: the merchant's and an order's delivery address. */
export const odStreetAddress = {
  country: Type.String({ description: 'Country code (BR).', pattern: '^[A-Z]{2}$' }),
  state: Type.String({ description: 'State (UF), e.g. SP.' }),
  city: Type.String({ description: 'City.' }),
  district: Type.String({ description: 'Neighbourhood.' }),
  street: Type.String({ description: 'Street.' }),
  number: Type.String({ description: 'The street number.' }),
};

export const OdAddress = Type.Object({
  ...odStreetAddress,
  postalCode: Type.String(),
  complement: Type.String(),
  reference: Type.Optional(Type.String()),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
});

/** Who the merchant is: nothing of it belongs to the catalog. */
export const OdBasicInfo = Type.Object({
  name: Type.String({ maxLength: 500 }),
  document: Type.String({ pattern: '^\\d{14}$' }),
  corporateName: Type.String({ maxLength: 500 }),
  description: Type.String(),
  averageTicket: Type.Optional(Type.Number()),
  averagePreparationTime: Type.Number(),
  minOrderValue: OdPrice,
  merchantType: Type.Enum(['RESTAURANT']),
  merchantCategories: Type.Array(Type.String()),
  address: OdAddress,
  contactEmails: Type.Array(Type.String()),
  contactPhones: Type.Object({ commercialNumber: Type.String(), whatsappNumber: Type.Optional(Type.String()) }),
  logoImage: OdImage,
  bannerImage: Type.Optional(OdImage),
  createdAt: Type.Optional(Type.String({ format: 'date-time' })),
  acceptedCards: Type.Optional(Type.Array(Type.String())),
});

/** How the merchant serves (delivery, takeout, indoor), its hours and area: not catalog data. */
export const OdService = Type.Object({
  id: Id('service id'),
  status: Availability,
  serviceType: Type.Enum(['DELIVERY', 'TAKEOUT', 'INDOOR']),
  serviceTiming: Type.Optional(
    Type.Object({
      timing: Type.Optional(Type.Array(Type.Enum(['INSTANT', 'SCHEDULED', 'ONDEMAND']))),
      schedule: Type.Optional(Type.Unknown()),
    }),
  ),
  servicePriority: Type.Optional(Type.Array(Type.String())),
  menuId: Id('the menu this service offers'),
  targetAppId: Type.Optional(Type.String({ format: 'uuid' })),
  // Polygons or a radius, with fees: required by the standard for DELIVERY; kept opaque here.
  serviceArea: Type.Optional(Type.Object({ id: Id('service area id') })),
  serviceHours: Type.Object({
    id: Id('service hours id'),
    weekHours: Type.Array(OdHours),
    holidayHours: Type.Optional(Type.Array(Type.Object({ date: Type.String(), timePeriods: OdTimePeriods }))),
  }),
});

/** A menu groups categories; a service points at one menu. */
export const OdMenu = Type.Object({
  id: Id('menu id'),
  name: Type.String({ maxLength: 500 }),
  description: Type.Optional(Type.String()),
  externalCode: Type.String(),
  disclaimer: Type.Optional(Type.String()),
  disclaimerURL: Type.Optional(Type.String({ format: 'uri' })),
  /** The categories of this menu; absent = every category. */
  categoryId: Type.Array(Id('category id')),
});

export const OdCategory = Type.Object({
  id: Id('category id'),
  index: Type.Integer(),
  name: Type.String({ maxLength: 150 }),
  description: Type.Optional(Type.String()),
  image: Type.Optional(OdImage),
  externalCode: Type.String(),
  status: Availability,
  /** When the category is served; absent = at all times. */
  availabilityId: Type.Optional(Type.Array(Id('availability id'))),
  /** The offers shown in this category; absent = every offer. */
  itemOfferId: Type.Optional(Type.Array(Id('item offer id'))),
});

/** An item on sale: its price and availability, in one or more categories. */
export const OdItemOffer = Type.Object({
  id: Id('item offer id'),
  itemId: Type.String(),
  index: Type.Integer(),
  status: Type.Optional(Availability),
  price: OdItemPrice,
  availabilityId: Type.Optional(Type.Array(Id('availability id'))),
  optionGroupsId: Type.Optional(Type.Array(Id('option group id'))),
});

export const OdNutritionalInfo = Type.Object({
  description: Type.String(),
  calories: Type.String(),
  allergen: Type.Optional(Type.Array(Type.String())),
  additives: Type.Optional(Type.Array(Type.String())),
  suitableDiet: Type.Optional(Type.Array(Type.String())),
  isAlcoholic: Type.Optional(Type.Boolean()),
});

/** What is sold, offered through an ItemOffer or chosen as an Option. */
export const OdItem = Type.Object({
  id: Id('item id'),
  name: Type.String({ maxLength: 150 }),
  description: Type.String(),
  externalCode: Type.String(),
  status: Type.Optional(Availability),
  /** Used only when `images` is empty. */
  image: Type.Optional(OdImage),
  images: Type.Optional(Type.Array(OdImageWithType, { maxItems: 2 })),
  nutritionalInfo: Type.Optional(OdNutritionalInfo),
  serving: Type.Optional(Type.Integer()),
  unit: Type.Enum(['UN', 'KG', 'L', 'OZ', 'LB', 'GAL']),
  ean: Type.Optional(Type.String()),
});

export const OdOption = Type.Object({
  id: Id('option id'),
  itemId: Type.Optional(Type.String()),
  index: Type.Optional(Type.Integer()),
  status: Type.Optional(Availability),
  price: Type.Optional(OdItemPrice),
  maxPermitted: Type.Optional(Type.Integer()),
});

/** Choices offered with an ItemOffer ("ponto da carne", "tempero"). */
export const OdOptionGroup = Type.Object({
  id: Id('option group id'),
  index: Type.Integer(),
  name: Type.String({ maxLength: 150 }),
  description: Type.Optional(Type.String()),
  externalCode: Type.String(),
  status: Availability,
  minPermitted: Type.Integer(),
  maxPermitted: Type.Integer(),
  priceMethod: Type.Optional(Type.Enum(['SUM', 'MAX', 'AVG'])),
  options: Type.Optional(Type.Array(OdOption)),
});

/** When a category or an offer is served (dates and weekly hours). */
export const OdAvailability = Type.Object({
  id: Id('availability id'),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  hours: Type.Array(OdHours),
});

const menuParts = {
  basicInfo: OdBasicInfo,
  services: Type.Array(OdService),
  menus: Type.Array(OdMenu),
  categories: Type.Array(OdCategory),
  itemOffers: Type.Array(OdItemOffer),
  items: Type.Array(OdItem),
  optionGroups: Type.Optional(Type.Array(OdOptionGroup)),
  availabilities: Type.Optional(Type.Array(OdAvailability)),
};

/** `GET {baseURL}/v1/merchant` on the POS: the whole merchant with its menu. */
export const OdMerchant = Type.Object({
  lastUpdate: Type.String({ format: 'date-time' }),
  /** Seconds the answer stays valid (the standard asks for 500 to 86400). */
  TTL: Type.Integer(),
  id: Type.String({ minLength: 36, maxLength: 100 }),
  status: Availability,
  ...menuParts,
});

/** The Merchant of a `MERCHANT` notification (no lastUpdate, no TTL). */
export const OdUpdateMerchant = Type.Object({
  id: Type.String({ minLength: 36, maxLength: 100 }),
  status: Availability,
  ...menuParts,
});

export const OD_ENTITY_TYPES = [
  'MERCHANT',
  'BASIC_INFO',
  'SERVICE',
  'MENU',
  'CATEGORY',
  'ITEM',
  'ITEM_OFFER',
  'OPTION_GROUP',
  'OPTION',
  'AVAILABILITY',
] as const;
export type OdEntityType = (typeof OD_ENTITY_TYPES)[number];

/** The objects a notification of each entityType carries in `updatedObjects`. */
export const OD_ENTITY_SCHEMAS = {
  MERCHANT: OdUpdateMerchant,
  BASIC_INFO: OdBasicInfo,
  SERVICE: OdService,
  MENU: OdMenu,
  CATEGORY: OdCategory,
  ITEM: OdItem,
  ITEM_OFFER: OdItemOffer,
  OPTION_GROUP: OdOptionGroup,
  OPTION: OdOption,
  AVAILABILITY: OdAvailability,
} as const;

/**
 * `POST /v1/merchantUpdate` (OD `menuUpdated`), the envelope only: an empty body asks for a pull;
 * `merchantStatus` alone switches order receiving; `entityType` with a non-empty
 * `updatedObjects` carries changed objects; all three do both. The objects themselves are read
 * one by one when the notification is processed (their shapes: OD_ENTITY_SCHEMAS).
 */
export const OdMerchantUpdate = Type.Object({
  merchantStatus: Type.Optional(
    described(
      Availability,
      'AVAILABLE or UNAVAILABLE: whether the merchant receives orders; required for MERCHANT, ignored otherwise.',
    ),
  ),
  entityType: Type.Optional(
    Type.Enum([...OD_ENTITY_TYPES], {
      description:
        'What updatedObjects holds: MERCHANT (the whole store, nested), ITEM (existing products, flat) or ITEM_OFFER (prices and availability, flat); never mixed.',
    }),
  ),
  updatedObjects: Type.Optional(
    Type.Array(Type.Unknown(), {
      description: 'The objects of the entityType (see the body variants).',
      maxItems: 200_000,
    }),
  ),
});

export type OdMerchant = Static<typeof OdMerchant>;
export type OdUpdateMerchant = Static<typeof OdUpdateMerchant>;
export type OdCategory = Static<typeof OdCategory>;
export type OdItemOffer = Static<typeof OdItemOffer>;
export type OdItem = Static<typeof OdItem>;
export type OdOptionGroup = Static<typeof OdOptionGroup>;
export type OdMerchantUpdate = Static<typeof OdMerchantUpdate>;
