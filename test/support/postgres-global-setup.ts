import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.js';
import { openPostgres } from '../../src/db/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTemplate: string;
  }
}

/**
 * Builds a migrated template database once per run; each test file copies it (fast). Names
 * carry this run's id, so runs sharing one PostgreSQL server do not touch each other's databases.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const runId = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const template = `clv_${runId}_template`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  const db = openPostgres({ connectionString: templateUrl.toString(), max: 1 });
  await migrate(db);
  await db.close();
  await admin.end();
  project.provide('postgresTemplate', template);
  return async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `clv_${runId}_%`,
    ]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await c.end();
  };
}
