// `cleaver pos statements`: the merchant's statements (D45) read with the POS's own credentials
// (GET /v1/financial/statements[/{id}[/lines]]): a table, the API's documents with --json, or the
// service's own CSV with --csv for the bookkeeper's spreadsheet.
import { EXIT, type Io, posClient, printFields, printJson, printTable, requireUuid, UsageError } from './common.js';

export const STATEMENTS_HELP = `  cleaver pos statements [list] [--state OPEN|CLOSED|PAID] [--limit N] [--cursor CURSOR] [--csv]
                                                  the merchant's statements, newest period first (D45)
  cleaver pos statements show STATEMENT_ID [--csv] one statement and its totals
  cleaver pos statements lines STATEMENT_ID [--csv]
                                                  the lines counted in it; --csv prints the service's CSV`;

/** Options of this command only (--limit is shared with pos requests). */
export const STATEMENTS_OPTIONS = {
  csv: { type: 'boolean' },
  state: { type: 'string' },
  cursor: { type: 'string' },
} as const;

const STATES = ['OPEN', 'CLOSED', 'PAID'] as const;

function limitOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError('--limit must be an integer from 1 to 1000');
  return n;
}

export async function posStatementsCommand(io: Io, args: string[], values: Record<string, unknown>): Promise<number> {
  const [action = 'list', id, ...extra] = args;
  if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0]}`);
  const client = posClient(values, io.env);
  const csv = values.csv === true;
  if (action === 'list') {
    if (id !== undefined) throw new UsageError(`unexpected argument: ${id}`);
    const state = values.state as string | undefined;
    if (state !== undefined && !(STATES as readonly string[]).includes(state)) {
      throw new UsageError(`--state takes ${STATES.join(', ')}`);
    }
    const query = {
      state: state as (typeof STATES)[number] | undefined,
      limit: limitOf(values.limit),
      cursor: values.cursor as string | undefined,
    };
    if (csv) {
      io.stdout.write(await client.statementsCsv({ list: query }));
      return EXIT.OK;
    }
    const page = await client.listStatements(query);
    if (values.json === true) printJson(io, page);
    else if (page.items.length === 0) io.stdout.write('no statements yet (one opens with the first concluded order)\n');
    else
      printTable(
        io,
        ['ID', 'PERIOD START', 'PERIOD END', 'STATE', 'GROSS', 'COMMISSION', 'COLLECTED', 'NET'],
        page.items.map((s) => [
          s.id,
          s.periodStart,
          s.periodEnd,
          s.state,
          s.totals.gross.toFixed(2),
          s.totals.commission.toFixed(2),
          s.totals.collectedByMerchant.toFixed(2),
          s.totals.net.toFixed(2),
        ]),
      );
    if (page.next && !values.json)
      io.stdout.write(`\nolder statements: cleaver pos statements --cursor ${page.next}\n`);
    return EXIT.OK;
  }
  if (action !== 'show' && action !== 'lines') {
    throw new UsageError(`unknown statements action "${action}": list, show or lines`);
  }
  for (const name of ['state', 'cursor', 'limit']) {
    if (values[name] !== undefined) throw new UsageError(`--${name} applies to "pos statements list" only`);
  }
  const statementId = requireUuid(args, 1, 'STATEMENT_ID');
  if (csv) {
    io.stdout.write(
      await client.statementsCsv(action === 'show' ? { statement: statementId } : { lines: statementId }),
    );
    return EXIT.OK;
  }
  if (action === 'show') {
    const s = await client.getStatement(statementId);
    if (values.json === true) printJson(io, s);
    else
      printFields(io, [
        ['id', s.id],
        ['period', `${s.periodStart} → ${s.periodEnd}`],
        ['state', s.state],
        ...Object.entries(s.totals).map(([k, v]): [string, string] => [k, v.toFixed(2)]),
        ['paid', s.paidAt ? `${s.paidAt} (${s.paidReference})` : null],
      ]);
    return EXIT.OK;
  }
  const found = await client.statementLines(statementId);
  if (values.json === true) printJson(io, found);
  else if (found.lines.length === 0) io.stdout.write('no lines in this statement\n');
  else
    printTable(
      io,
      ['OCCURRED AT', 'KIND', 'VALUE', 'NET EFFECT', 'ORDER', 'REASON'],
      found.lines.map((l) => [l.occurredAt, l.kind, l.value.toFixed(2), l.netEffect.toFixed(2), l.orderId, l.reason]),
    );
  return EXIT.OK;
}
