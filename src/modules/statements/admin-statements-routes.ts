// D45, the operator's side (/admin/v1/statements): every merchant's statements, paged and
// filtered, as JSON or CSV; marking a CLOSED statement PAID and adding an adjustment, both
// admin-only and audited. Readers: viewer and above (a statement is a merchant's money: the
// marketplace's `platform` tokens are not among them).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PAGED_LIST, sendPage } from '../../lib/pagination.js';
import { declareRoute } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { linesCsv, sendCsv, statementsCsv, wantsCsv } from './statements-csv.js';
import {
  AdjustmentBody,
  jsonOrCsv,
  MarkPaidBody,
  OperatorStatementQuery,
  Statement,
  StatementIdParams,
  StatementLine,
  StatementWithLines,
} from './statements-schemas.js';
import type { StatementsService } from './statements-service.js';

const tags = ['operator'];
const CSV_NOTE = ' `Accept: text/csv` answers CSV (a header row, `.` as decimal point, UTF-8).';

export const adminStatementsRoutes: FastifyPluginAsyncTypebox<{ statements: StatementsService }> = async (
  app,
  { statements },
) => {
  app.route(
    declareRoute({
      method: 'GET',
      url: '/statements',
      access: { role: 'viewer' },
      summary: "Merchants' statements, newest period first (D45)",
      description: `Filtered by merchantId, state, from and to. ${PAGED_LIST}${CSV_NOTE}`,
      schema: {
        tags,
        querystring: OperatorStatementQuery,
        response: { 200: jsonOrCsv(Type.Array(Statement), 'The statements'), ...errorResponses(400, 401, 403) },
      },
      handler: async (request, reply) => {
        const found = await statements.list(request.query);
        if (!wantsCsv(request)) return sendPage(request, reply, found);
        sendPage(request, reply, found);
        return sendCsv(reply, 'statements.csv', statementsCsv(found.items));
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/statements/:statementId',
      access: { role: 'viewer' },
      summary: 'One statement with its totals (D45)',
      description: `Errors: 404.${CSV_NOTE}`,
      schema: {
        tags,
        params: StatementIdParams,
        response: { 200: jsonOrCsv(Statement, 'The statement'), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        const statement = await statements.get(request.params.statementId);
        return wantsCsv(request)
          ? sendCsv(reply, `statement-${statement.id}.csv`, statementsCsv([statement]))
          : statement;
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'GET',
      url: '/statements/:statementId/lines',
      access: { role: 'viewer' },
      summary: "A statement's lines, oldest first (D45)",
      description: `The statement and every line counted in it. Errors: 404.${CSV_NOTE} The CSV has the lines only.`,
      schema: {
        tags,
        params: StatementIdParams,
        response: {
          200: jsonOrCsv(StatementWithLines, 'The statement and its lines'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
      handler: async (request, reply) => {
        const found = await statements.lines(request.params.statementId);
        return wantsCsv(request)
          ? sendCsv(reply, `statement-${found.statement.id}-lines.csv`, linesCsv(found.lines))
          : found;
      },
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/statements/:statementId/paid',
      access: { role: 'admin', auditAction: 'statement.paid' },
      summary: 'Mark a CLOSED statement PAID (D45)',
      description:
        'Records that the platform paid the statement: when and the payment’s reference. Audited. Errors: 400 ' +
        'naming the field; 404; 409 unless the statement is CLOSED.',
      schema: {
        tags,
        params: StatementIdParams,
        body: MarkPaidBody,
        response: { 200: Statement, ...errorResponses(400, 401, 403, 404, 409) },
      },
      handler: async (request) => statements.markPaid(request.params.statementId, request.body),
    }),
  );

  app.route(
    declareRoute({
      method: 'POST',
      url: '/statements/:statementId/adjustments',
      access: { role: 'admin', auditAction: 'statement.adjust' },
      summary: 'Add an adjustment line (D45)',
      description:
        'An ADJUSTMENT line with its reason: + owed to the shop, − owed by it. It goes into this statement ' +
        'while it is OPEN, otherwise into the merchant’s open statement (a closed one never changes); the ' +
        'answer’s statementId says which. Audited. Errors: 400 naming the field; 404.',
      schema: {
        tags,
        params: StatementIdParams,
        body: AdjustmentBody,
        response: { 201: StatementLine, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        const line = await statements.adjust(request.params.statementId, request.body);
        return reply.code(201).send(line);
      },
    }),
  );
};
