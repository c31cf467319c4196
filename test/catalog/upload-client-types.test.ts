// @cleaver/pos-client depends on nothing of the service, so its catalog upload types (spec 4.3)
// are written there again; this file holds them to the one source, catalog-upload-schema.ts.
// The type checks run with `tsc` (npm run typecheck includes test/): every object the client
// types has exactly the fields of its schema, and every body the client can build is one the
// schema describes. The runtime checks validate the client-typed sample catalog with the schema.
import type {
  CatalogItemObject,
  CatalogItemOfferObject,
  CatalogMerchantObject,
  MerchantUpdateRequest,
} from '@cleaver/pos-client';
import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { sampleButcherCatalog } from '../../src/cli/sample-catalog.js';
import {
  type FlatItem,
  type FlatItemOffer,
  type ItemOfferUpload,
  type ItemUpload,
  MerchantUpload,
  type UploadCategory,
  type UploadItem,
  type UploadItemOffer,
  type UploadStore,
} from '../../src/modules/catalog/catalog-upload-schema.js';

type Entry<T> = NonNullable<T> extends readonly (infer E)[] ? E : NonNullable<T>;
type Variant<E extends MerchantUpdateRequest['entityType']> = Extract<MerchantUpdateRequest, { entityType: E }>;

/** What tells a client type from its schema: fields only one has, and whether the client's values fit. */
interface Fields<Client, Schema> {
  onlyInClient: Exclude<keyof Client, keyof Schema>;
  onlyInSchema: Exclude<keyof Schema, keyof Client>;
  fits: Client extends Schema ? true : false;
}
type Same = { onlyInClient: never; onlyInSchema: never; fits: true };

describe('the pos-client upload types and the upload schema (spec 4.3)', () => {
  it('have the same fields at every level of the three bodies', () => {
    expectTypeOf<Fields<Variant<'MERCHANT'>, Static<typeof MerchantUpload>>>().toEqualTypeOf<Same>();
    expectTypeOf<Fields<Variant<'ITEM'>, Static<typeof ItemUpload>>>().toEqualTypeOf<Same>();
    expectTypeOf<Fields<Variant<'ITEM_OFFER'>, Static<typeof ItemOfferUpload>>>().toEqualTypeOf<Same>();

    expectTypeOf<Fields<CatalogMerchantObject, Static<typeof UploadStore>>>().toEqualTypeOf<Same>();
    expectTypeOf<
      Fields<Entry<CatalogMerchantObject['categories']>, Static<typeof UploadCategory>>
    >().toEqualTypeOf<Same>();
    expectTypeOf<
      Fields<Entry<CatalogMerchantObject['itemOffers']>, Static<typeof UploadItemOffer>>
    >().toEqualTypeOf<Same>();
    expectTypeOf<Fields<Entry<CatalogMerchantObject['items']>, Static<typeof UploadItem>>>().toEqualTypeOf<Same>();
    expectTypeOf<keyof Entry<CatalogMerchantObject['itemOffers']>['price']>().toEqualTypeOf<
      keyof Static<typeof UploadItemOffer>['price']
    >();
    expectTypeOf<keyof NonNullable<Entry<CatalogMerchantObject['items']>['image']>>().toEqualTypeOf<
      keyof NonNullable<Static<typeof UploadItem>['image']>
    >();

    expectTypeOf<Fields<CatalogItemObject, Static<typeof FlatItem>>>().toEqualTypeOf<Same>();
    expectTypeOf<Fields<CatalogItemOfferObject, Static<typeof FlatItemOffer>>>().toEqualTypeOf<Same>();
    expectTypeOf<keyof NonNullable<CatalogItemOfferObject['price']>>().toEqualTypeOf<
      keyof NonNullable<Static<typeof FlatItemOffer>['price']>
    >();
  });

  it('the sample catalog the CLI builds with the client types is a body the schema describes', () => {
    const body = sampleButcherCatalog();
    const check = Compile(MerchantUpload);
    expect([...check.Errors(body)]).toEqual([]);
    expect(check.Check({ ...body, surplus: true })).toBe(false);
  });
});
