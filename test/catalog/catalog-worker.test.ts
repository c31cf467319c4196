import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createCatalogService } from '../../src/modules/catalog/index.js';
import {
  merchantBody,
  merchantRecord,
  operatorSyncs,
  productByPdv,
  sampleCatalog,
  syncStatus,
  upload,
} from '../support/catalog.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  // The NOTIFY test polls merchantStatus until the worker is done: lift the read-route budget.
  t = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_READ: '1000000' } });
});
afterAll(() => t.close());

/** A second worker on the same database whose apply transaction dies just before commit. */
function crashingCatalog(times: number) {
  let left = times;
  return createCatalogService({
    db: t.database.db,
    merchants: t.services.merchants,
    clock,
    beforeCommit: () => {
      if (left > 0) {
        left -= 1;
        throw new Error('simulated crash before commit');
      }
    },
  });
}

async function waitFor(predicate: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('crash safety (D16)', () => {
  it('a crash mid-upload leaves nothing applied; the upload runs again when the lease expires', async () => {
    const me = await createMerchant(t.app);
    await upload(t, me, merchantBody(sampleCatalog(), { merchantStatus: 'UNAVAILABLE' }));
    const crashing = crashingCatalog(1);
    expect(await crashing.worker.drain()).toBe(1);

    // Nothing of the upload is visible, and it is still PROCESSING.
    expect((await syncStatus(t, me)).status).toBe('PROCESSING');
    const r = await merchantRecord(t, me);
    expect(r).toMatchObject({ status: 'AVAILABLE', categories: [], products: [] });

    // The lease still holds: no other worker takes the upload over.
    expect(await t.services.catalog.worker.drain()).toBe(0);
    clock.advance(121_000);
    expect(await t.services.catalog.worker.drain()).toBe(1);
    const done = await syncStatus(t, me);
    expect(done.status).toBe('SUCCESS');
    const after = await merchantRecord(t, me);
    expect(after.status).toBe('UNAVAILABLE');
    expect(after.products).toHaveLength(3);
    const [sync] = await operatorSyncs(t, me.merchantId);
    expect(sync.attempts).toBe(2);
  });

  it('a later upload of the same merchant waits for the crashed one (arrival order)', async () => {
    const me = await createMerchant(t.app);
    await upload(t, me, merchantBody(sampleCatalog()));
    await upload(t, me, { entityType: 'ITEM_OFFER', updatedObjects: [{ itemId: 'P1', price: { value: 1 } }] });
    const crashing = crashingCatalog(1);
    expect(await crashing.worker.runOnce()).toBe(true);
    // The ITEM_OFFER upload must not run before the MERCHANT upload it depends on.
    expect(await t.services.catalog.worker.drain()).toBe(0);
    clock.advance(121_000);
    expect(await t.services.catalog.worker.drain()).toBe(2);
    expect((await syncStatus(t, me)).status).toBe('SUCCESS');
    expect(productByPdv(await merchantRecord(t, me), 'P1')?.price).toBe(1);
  });

  it('gives up with FAIL after repeated failures instead of retrying forever', async () => {
    const me = await createMerchant(t.app);
    await upload(t, me, merchantBody(sampleCatalog()));
    const crashing = crashingCatalog(100);
    for (let i = 0; i < 6; i++) {
      expect(await crashing.worker.drain()).toBe(1);
      clock.advance(121_000);
    }
    const status = await syncStatus(t, me);
    expect(status.status).toBe('FAIL');
    expect(status.moreInfo).toBe(
      'Processing failed 5 times; nothing of this upload was applied. Send it again or ask support.',
    );
    expect((await merchantRecord(t, me)).products).toEqual([]);
  });
});

describe('wake-up by NOTIFY', () => {
  it('a started worker processes an upload without being driven', async () => {
    const me = await createMerchant(t.app);
    const worker = t.services.catalog.worker;
    await worker.start();
    try {
      await upload(t, me, merchantBody(sampleCatalog()));
      await waitFor(async () => (await syncStatus(t, me)).status !== 'PROCESSING');
      expect((await syncStatus(t, me)).status).toBe('SUCCESS');
    } finally {
      await worker.stop();
    }
  });
});

describe('lease heartbeat (issue "Hardening" 10)', () => {
  it('a long apply keeps its short lease: another worker does not take the upload over', async () => {
    const me = await createMerchant(t.app);
    const real = { now: () => new Date() };
    let releaseApply: () => void = () => {};
    let applying: () => void = () => {};
    const inApply = new Promise<void>((resolve) => {
      applying = resolve;
    });
    // Worker A holds the upload with a 1 s lease and a heartbeat, and takes up to 4 s to apply
    // (a lease of 1 s rather than less: a loaded CI machine stalls timers for hundreds of ms).
    const slow = createCatalogService({
      db: t.database.db,
      merchants: t.services.merchants,
      clock: real,
      leaseMs: 1_000,
      beforeCommit: () => {
        applying();
        return new Promise<void>((resolve) => {
          releaseApply = resolve;
          setTimeout(resolve, 4_000);
        });
      },
    });
    const other = createCatalogService({
      db: t.database.db,
      merchants: t.services.merchants,
      clock: real,
      leaseMs: 1_000,
    });
    await slow.worker.start();
    try {
      await upload(t, me, merchantBody(sampleCatalog()));
      await inApply;
      // Three lease lengths go by; the heartbeat keeps renewing A's lease meanwhile.
      let takenOver = 0;
      const until = Date.now() + 3_000;
      while (Date.now() < until) {
        if (t.database.kind === 'postgres') takenOver += await other.worker.drain();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      releaseApply();
      await waitFor(async () => (await syncStatus(t, me)).status !== 'PROCESSING');
      expect(takenOver).toBe(0);
      expect((await syncStatus(t, me)).status).toBe('SUCCESS');
      const [sync] = await operatorSyncs(t, me.merchantId);
      expect(sync.attempts).toBe(1);
    } finally {
      await slow.worker.stop();
    }
  });

  it('the lease is configurable and short by default', () => {
    expect(t.services.catalog.worker.leaseMs).toBe(8_000);
    expect(
      createCatalogService({ db: t.database.db, merchants: t.services.merchants, clock, leaseMs: 2_000 }).worker
        .leaseMs,
    ).toBe(2_000);
  });
});
