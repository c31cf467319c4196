// D45: the POS reads its own merchant's statements (GET /v1/financial/statements[/{id}[/lines]]),
// as JSON or, for `Accept: text/csv`, as CSV for the bookkeeper. Another merchant's statement is
// a 404 like a missing one (D21).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendPage } from '../../lib/pagination.js';
import { declareRoute, MERCHANT_READ } from '../../lib/route-declaration.js';
import { errorResponses } from '../../lib/schemas.js';
import { linesCsv, sendCsv, statementsCsv, wantsCsv } from './statements-csv.js';
import {
  jsonOrCsv,
  PosStatementQuery,
  Statement,
  StatementIdParams,
  StatementWithLines,
} from './statements-schemas.js';
import type { StatementsService } from './statements-service.js';

const tags = ['financial'];
const CSV_NOTE = ' `Accept: text/csv` answers CSV (a header row, `.` as decimal point, UTF-8).';

export const statementsRoutes: FastifyPluginAsyncTypebox<{ statements: StatementsService }> = async (
  app,
  { statements },
) => {
  const read = { method: 'GET', access: MERCHANT_READ } as const;
  app.route(
    declareRoute({
      ...read,
      url: '/financial/statements',
      summary: "The merchant's statements, newest period first (D45)",
      description:
        'One statement per period (a day or a week from Monday, America/Sao_Paulo): OPEN while its period ' +
        'runs, CLOSED once it ended (it never changes after that), PAID when the platform paid it. Filters ' +
        '`state`, `from`, `to`; the next page is in the `Link: <…>; rel="next"` header.' +
        CSV_NOTE,
      schema: {
        tags,
        querystring: PosStatementQuery,
        response: { 200: jsonOrCsv(Type.Array(Statement), 'The statements'), ...errorResponses(400, 401, 429) },
      },
      handler: async (request, reply) => {
        const found = await statements.list({ ...request.query, merchantId: request.principal.merchantId });
        if (wantsCsv(request)) {
          if (found.next) sendPage(request, reply, found);
          return sendCsv(reply, 'statements.csv', statementsCsv(found.items));
        }
        return sendPage(request, reply, found);
      },
    }),
  );

  app.route(
    declareRoute({
      ...read,
      url: '/financial/statements/:statementId',
      summary: 'One statement with its totals (D45)',
      description: `The statement's period, state and totals. Errors: 404 for a statement that is not this merchant's.${CSV_NOTE}`,
      schema: {
        tags,
        params: StatementIdParams,
        response: { 200: jsonOrCsv(Statement, 'The statement'), ...errorResponses(400, 401, 404, 429) },
      },
      handler: async (request, reply) => {
        const statement = await statements.get(request.params.statementId, request.principal.merchantId);
        return wantsCsv(request)
          ? sendCsv(reply, `statement-${statement.id}.csv`, statementsCsv([statement]))
          : statement;
      },
    }),
  );

  app.route(
    declareRoute({
      ...read,
      url: '/financial/statements/:statementId/lines',
      summary: "A statement's lines, oldest first (D45)",
      description:
        'Every line counted in the statement: ORDER, COMMISSION and COLLECTED_BY_MERCHANT when an order ' +
        'concludes, ADJUSTMENT by an operator (WEIGHING_ADJUSTMENT and CANCELLATION for changes to an amount ' +
        'already counted). `netEffect` is what each line does to net; summed, the lines give the totals. ' +
        `Errors: 404.${CSV_NOTE} The CSV has the lines only.`,
      schema: {
        tags,
        params: StatementIdParams,
        response: {
          200: jsonOrCsv(StatementWithLines, 'The statement and its lines'),
          ...errorResponses(400, 401, 404, 429),
        },
      },
      handler: async (request, reply) => {
        const found = await statements.lines(request.params.statementId, request.principal.merchantId);
        return wantsCsv(request)
          ? sendCsv(reply, `statement-${found.statement.id}-lines.csv`, linesCsv(found.lines))
          : found;
      },
    }),
  );
};
