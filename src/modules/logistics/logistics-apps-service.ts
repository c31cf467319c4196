import type { Db } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken } from '../../lib/crypto.js';
import { decodeTimeCursor } from '../../lib/cursor.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AuthService } from '../auth/index.js';
import type { MerchantsService } from '../merchants/index.js';
import * as repo from './logistics-apps-repository.js';

export const logisticsAppNotFound = () => notFound('Logistics app not found');

export function createLogisticsAppsService(deps: {
  db: Db;
  clock: Clock;
  auth: AuthService;
  merchants: Pick<MerchantsService, 'existingMerchantIds'>;
}) {
  const { db, clock, auth } = deps;
  return {
    /** POST /admin/v1/logisticsApps; the secret (HMAC key of spec 5.2) is shown only here. */
    async createApp(input: { name: string; merchantIds: string[] }) {
      const name = input.name.trim();
      if (!name) throw badRequest('name must not be empty');
      const merchantIds = [...new Set(input.merchantIds.map((id) => id.toLowerCase()))];
      const known = new Set(await deps.merchants.existingMerchantIds(merchantIds));
      const unknownIndex = merchantIds.findIndex((id) => !known.has(id));
      if (unknownIndex >= 0) throw badRequest(`merchantIds[${unknownIndex}] is not a known merchant`);
      const appId = newId(); // randomUUID is version 4, as spec 5.2 requires of X-App-Id
      const clientSecret = randomToken(32);
      await db.transaction((tx) =>
        repo.insertLogisticsApp(tx, {
          id: appId,
          name,
          secretEnc: auth.sealSecret(clientSecret),
          merchantIds,
          createdAt: clock.now(),
        }),
      );
      return { appId, clientSecret, name, merchantIds };
    },

    async deactivateApp(appId: string): Promise<void> {
      const app = await repo.findLogisticsApp(db, appId);
      if (!app) throw logisticsAppNotFound();
      await repo.deactivateLogisticsApp(db, appId, clock.now());
    },

    findApp: (appId: string) => repo.findLogisticsApp(db, appId),
    /** All apps (sandbox), or a keyset page matching `q` / `active` (operator-api.md#lists). */
    listApps: (filter: { q?: string; active?: boolean; cursor?: string; limit?: number } = {}) =>
      repo.listLogisticsApps(db, { ...filter, after: decodeTimeCursor(filter.cursor) }),
    /** The clear HMAC key, for verifying X-App-Signature. */
    openSecret: (sealed: string) => auth.openSecret(sealed),
  };
}

export type LogisticsAppsService = ReturnType<typeof createLogisticsAppsService>;
