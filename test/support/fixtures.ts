// Test fixtures (style.md#tests): one real app on a fresh real database per test file, a fresh
// merchant with an integration key per test. A file states only what differs for it:
//
//   const it = appTest({ clock });             // options of createTestApp
//   it('confirms', async ({ t, me }) => { … }); // t: the app; me: a new merchant and its token
import { test } from 'vitest';
import {
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
  type TestAppOptions,
} from './test-app.js';

export function appTest(options: TestAppOptions = {}) {
  return (
    test
      // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern.
      .extend('t', { scope: 'file' }, async ({}, { onCleanup }): Promise<TestApp> => {
        const t = await createTestApp(options);
        onCleanup(() => t.close());
        return t;
      })
      .extend('me', async ({ t }): Promise<MerchantCredentials> => createMerchant(t.app))
  );
}
