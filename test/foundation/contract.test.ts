import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { systemClock } from '../../src/lib/clock.js';
import { createServices } from '../../src/services.js';
import { installContractCheck, takeContractViolations } from '../support/contract.js';
import { ADMIN_TOKEN, bearer, createMerchant, SECRET_KEY } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-db.js';

const database = await createTestDatabase();
afterAll(() => database.close());

describe('contract check against /openapi.json', () => {
  it('reports a response body the document does not describe, and an undocumented status', async () => {
    const config = loadConfig({
      CLEAVER_ADMIN_TOKEN: ADMIN_TOKEN,
      CLEAVER_SECRET_KEY: SECRET_KEY,
      CLEAVER_DATA_DIR: '/x',
    });
    const services = createServices({ config, db: database.db, clock: systemClock });
    const app = await buildApp(services, {
      extraMerchantRoutes: async (scope) => {
        scope.get(
          '/v1/contract-probe',
          {
            schema: {
              response: {
                200: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
              },
            },
          },
          async (request, reply) => {
            const q = request.query as { status?: string };
            // A string payload skips the serializer, as a buggy handler could.
            return reply
              .code(Number(q.status ?? 200) as 200)
              .type('application/json')
              .send(JSON.stringify({ b: 1 }));
          },
        );
      },
    });
    installContractCheck(app);
    await app.ready();
    try {
      const m = await createMerchant(app);
      takeContractViolations();
      await app.inject({ method: 'GET', url: '/v1/contract-probe', headers: bearer(m.token) });
      await app.inject({ method: 'GET', url: '/v1/contract-probe?status=418', headers: bearer(m.token) });
      const found = takeContractViolations();
      expect(found).toHaveLength(2);
      expect(found[0]).toContain('GET /v1/contract-probe → 200: [{"instancePath":"","schemaPath":"#/required"');
      expect(found[1]).toBe('GET /v1/contract-probe → 418: status not documented');
    } finally {
      await app.close();
    }
  });
});
