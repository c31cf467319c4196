// Operators for tests, made the way a platform would: through the operator API with the
// bootstrap token, then a personal token or a console login.
import type { FastifyInstance } from 'fastify';
import type { Role } from '../../src/modules/operators/index.js';
import { adminHeaders, bearer } from '../support/test-app.js';

export const PASSWORD = 'correct horse battery staple';

export interface TestOperator {
  id: string;
  email: string;
  role: Role;
  password: string;
  /** A personal token with the operator's role. */
  token: string;
  headers: { authorization: string };
}

let counter = 0;

export async function createOperator(
  app: FastifyInstance,
  role: Role,
  name = `${role} operator`,
): Promise<TestOperator> {
  const email = `${role}-${++counter}-${Date.now()}@cleaver.test`;
  const res = await app.inject({
    method: 'POST',
    url: '/admin/v1/operators',
    headers: adminHeaders,
    payload: { email, name, role, password: PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`create operator: ${res.statusCode} ${res.body}`);
  const id = res.json().id as string;
  const t = await app.inject({
    method: 'POST',
    url: `/admin/v1/operators/${id}/tokens`,
    headers: adminHeaders,
    payload: { name: 'tests' },
  });
  if (t.statusCode !== 201) throw new Error(`create token: ${t.statusCode} ${t.body}`);
  const token = t.json().token as string;
  return { id, email, role, password: PASSWORD, token, headers: bearer(token) };
}

export interface AuditEntry {
  id: string;
  actor: string;
  actorType: string;
  operatorId: string | null;
  tokenId: string | null;
  role: string | null;
  channel: string;
  action: string;
  target: Record<string, string>;
  details: Record<string, unknown>;
  result: { status: number; outcome: string; reason: string | null };
  ip: string | null;
  userAgent: string | null;
}

/** The audit entries (newest first) matching a query, read through the API. */
export async function auditEntries(app: FastifyInstance, query = ''): Promise<AuditEntry[]> {
  const res = await app.inject({ method: 'GET', url: `/admin/v1/audit?limit=1000${query}`, headers: adminHeaders });
  if (res.statusCode !== 200) throw new Error(`audit: ${res.statusCode} ${res.body}`);
  return res.json() as AuditEntry[];
}
