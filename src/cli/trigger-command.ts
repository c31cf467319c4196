// `cleaver trigger SCENARIO`: plays a sandbox scenario (src/modules/sandbox) so a POS developer
// gets the order or event they want to handle next, now: a scheduled delivery, cash with change,
// a customer cancelling after dispatch, the courier's updates, a platform cancellation…
// By default on the merchant of the POS credentials (POST /v1/sandbox/scenarios); with
// --merchant, on any merchant through the operator API.
import type { SandboxScenario, SandboxScenarioOptions, SandboxScenarioResult } from '@cleaver/pos-client';
import {
  ADMIN_OPTIONS,
  EXIT,
  type Io,
  noMoreArguments,
  operatorClient,
  POS_HELP,
  POS_OPTIONS,
  parse,
  posClient,
  printJson,
  printTable,
  requirePositional,
  UsageError,
} from './common.js';
import { startProgress, stdoutPaint } from './terminal.js';

export const TRIGGER_HELP = `Usage (sandbox only):
  cleaver trigger SCENARIO [--order ORDER_ID]   play a scenario: an order and the events that follow
  cleaver trigger all                           play every scenario, one after the other
  cleaver trigger list                          the scenarios, with the events each raises

  --order ORDER_ID        play the steps after the order is placed (customer cancellation,
                          logistics, platform events) on this order instead of a new one
  --merchant MERCHANT_ID  play on this merchant through the operator API (--admin-token or
                          CLEAVER_ADMIN_TOKEN) instead of the merchant of the POS credentials

Products come from the merchant's catalog: publish one first (cleaver pos catalog push FILE --wait).
--json prints the server's answer (order ids, event types) as one JSON document; "trigger all"
prints one JSON line per scenario.

${POS_HELP}
  --admin-token TOKEN     operator token, with --merchant`;

interface ScenarioApi {
  list(): Promise<SandboxScenario[]>;
  play(scenario: string, options?: SandboxScenarioOptions): Promise<SandboxScenarioResult>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function scenarioApi(values: Record<string, unknown>, io: Io): ScenarioApi {
  const merchantId = values.merchant as string | undefined;
  if (merchantId === undefined && (values['admin-token'] !== undefined || values['data-dir'] !== undefined)) {
    throw new UsageError('--admin-token and --data-dir go with --merchant (the operator API)');
  }
  if (merchantId !== undefined) {
    if (!UUID.test(merchantId)) throw new UsageError(`--merchant must be a uuid, got "${merchantId}"`);
    const op = operatorClient(values, io.env);
    return {
      list: () => op.listScenarios(merchantId),
      play: (scenario, options) => op.playScenario(merchantId, scenario, options),
    };
  }
  const pos = posClient(values, io.env);
  return { list: () => pos.listScenarios(), play: (scenario, options) => pos.playScenario(scenario, options) };
}

function printResult(io: Io, result: SandboxScenarioResult): void {
  const p = stdoutPaint(io);
  for (const order of result.orders) {
    io.stdout.write(
      `${p.green('✓')} ${p.bold(result.scenario)}: order ${order.displayId} ${p.bold(order.id)} ` +
        `${order.type} ${order.orderTiming} R$ ${order.orderAmount.toFixed(2)}, delivery code ${order.deliveryCode}, ` +
        `status ${order.status}${order.created ? '' : ' (existing order)'}\n`,
    );
  }
  io.stdout.write(`  ${p.dim('events:')} ${result.events.map((e) => e.eventType).join(', ') || '(none)'}\n`);
}

export async function triggerCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...POS_OPTIONS,
    ...ADMIN_OPTIONS,
    merchant: { type: 'string' },
    order: { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(`${TRIGGER_HELP}\n`);
    return EXIT.OK;
  }
  const json = values.json === true;
  const name = requirePositional(positionals, 0, 'SCENARIO (cleaver trigger list shows them)');
  noMoreArguments(positionals, 1, `trigger ${name}`);
  const orderId = values.order;
  if (orderId !== undefined && !UUID.test(orderId)) throw new UsageError(`--order must be a uuid, got "${orderId}"`);
  if (orderId !== undefined && (name === 'list' || name === 'all')) {
    throw new UsageError(`--order does not apply to trigger ${name}`);
  }

  const api = scenarioApi(values, io);
  const scenarios = await api.list();
  if (name === 'list') {
    if (json) printJson(io, scenarios);
    else
      printTable(
        io,
        ['SCENARIO', 'EVENTS', 'DESCRIPTION'],
        scenarios.map((s) => [s.name, s.events.join(','), s.description]),
      );
    return EXIT.OK;
  }

  if (name !== 'all' && !scenarios.some((s) => s.name === name)) {
    throw new UsageError(`unknown scenario "${name}": one of ${scenarios.map((s) => s.name).join(', ')}`);
  }
  const chosen = name === 'all' ? scenarios : scenarios.filter((s) => s.name === name);
  const [first] = chosen;
  if (orderId !== undefined && first && !first.appliesToExistingOrder) {
    throw new UsageError(`--order does not apply to scenario ${name}: it places a new order`);
  }
  const progress = startProgress(io, json);
  try {
    for (const [i, scenario] of chosen.entries()) {
      if (io.signal?.aborted) break;
      progress.update(`${chosen.length > 1 ? `[${i + 1}/${chosen.length}] ` : ''}playing ${scenario.name}…`);
      const result = await api.play(scenario.name, orderId !== undefined ? { orderId } : undefined);
      progress.stop();
      // One document for one scenario; JSON lines when several stream out.
      if (json && chosen.length > 1) io.stdout.write(`${JSON.stringify(result)}\n`);
      else if (json) printJson(io, result);
      else printResult(io, result);
    }
  } finally {
    progress.stop();
  }
  return EXIT.OK;
}
