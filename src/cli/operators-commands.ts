// `cleaver operators …` and `cleaver audit …`: operator accounts, their tokens and the audit log
// through the operator API (docs/security.md), with the bootstrap token or a personal token.
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type AuditFilter,
  CleaverApiError,
  CleaverAuthError,
  CleaverNetworkError,
  type OperatorAccount,
  type OperatorRole,
} from '@cleaver/pos-client';
import {
  ADMIN_HELP,
  ADMIN_OPTIONS,
  EXIT,
  flagOptions,
  type Io,
  operatorClient,
  operatorConnection,
  parse,
  printDone,
  printHelp,
  printJson,
  printList,
  printRecord,
  printTable,
  requirePositional,
  UsageError,
  valueOptions,
} from './common.js';

export const OPERATORS_HELP = `Usage:
  cleaver operators create --email EMAIL --name NAME --role admin|support|viewer|platform [--password-stdin]
  cleaver operators list
  cleaver operators update OPERATOR_ID [--role ROLE] [--disable | --enable]
  cleaver operators set-password OPERATOR_ID --password-stdin     its console sessions end
  cleaver operators revoke-access OPERATOR_ID      end every session and token of the operator
  cleaver operators token create OPERATOR_ID [--name NAME] [--role ROLE] [--expires-at ISO_TIME]
  cleaver operators token revoke OPERATOR_ID TOKEN_ID

  --password-stdin   read the password from standard input (kept out of the shell history and
                     the process list), e.g. printf '%s' "$PASSWORD" | cleaver operators create …

The first admin is created with the bootstrap token (CLEAVER_ADMIN_TOKEN). --admin-token also
takes a personal token (cop_…), which acts with its role.

${ADMIN_HELP}`;

export const AUDIT_HELP = `Usage:
  cleaver audit list [--actor EMAIL|ID|bootstrap-token] [--action ACTION] [--since T] [--until T] [--limit N]
  cleaver audit export [same filters]      every matching entry as JSON lines, oldest first

  --action   an action (integrationKey.create) or a family (order)
  --since/--until  ISO 8601 times (until is exclusive)

${ADMIN_HELP}`;

const ROLES = ['admin', 'support', 'viewer', 'platform'];

function roleOf(value: string | undefined): OperatorRole | undefined {
  if (value === undefined) return undefined;
  if (!ROLES.includes(value)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return value as OperatorRole;
}

async function readStdin(io: Io): Promise<string> {
  const input = io.stdin;
  if (!input) throw new UsageError('--password-stdin needs standard input');
  let text = '';
  for await (const chunk of input) text += chunk.toString();
  const password = text.replace(/\r?\n$/, '');
  if (!password) throw new UsageError('--password-stdin: standard input was empty');
  return password;
}

function operatorFields(o: OperatorAccount): Array<[string, string]> {
  return [
    ['operator id', o.id],
    ['email', o.email],
    ['name', o.name],
    ['role', o.role],
    ['state', o.disabled ? 'disabled' : 'active'],
    ['password', o.passwordSet ? 'set' : 'not set (tokens only)'],
    ['one-time codes', o.totpEnabled ? 'enabled' : 'not enabled'],
  ];
}

export async function operatorsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...ADMIN_OPTIONS,
    ...valueOptions('email', 'name', 'role', 'expires-at'),
    ...flagOptions('password-stdin', 'disable', 'enable'),
  });
  if (values.help) return printHelp(io, OPERATORS_HELP);
  const [sub, ...rest] = positionals;
  const json = values.json ?? false;
  const role = roleOf(values.role);
  switch (sub) {
    case 'create': {
      if (!values.email || !values.name || !role)
        throw new UsageError('operators create needs --email, --name and --role');
      const password = values['password-stdin'] ? await readStdin(io) : undefined;
      const o = await operatorClient(values, io.env).createOperator({
        email: values.email,
        name: values.name,
        role,
        ...(password ? { password } : {}),
      });
      printRecord(io, json, o, operatorFields(o));
      return EXIT.OK;
    }
    case 'list': {
      const list = await operatorClient(values, io.env).listOperators();
      printList(io, json, list, ['ID', 'EMAIL', 'NAME', 'ROLE', 'STATE'], (o) => [
        o.id,
        o.email,
        o.name,
        o.role,
        o.disabled ? 'disabled' : 'active',
      ]);
      return EXIT.OK;
    }
    case 'update': {
      const id = requirePositional(rest, 0, 'OPERATOR_ID');
      if (values.disable && values.enable) throw new UsageError('--disable and --enable exclude each other');
      const disabled = values.disable ? true : values.enable ? false : undefined;
      if (!role && disabled === undefined) throw new UsageError('operators update needs --role, --disable or --enable');
      const o = await operatorClient(values, io.env).updateOperator(id, {
        ...(role ? { role } : {}),
        ...(disabled === undefined ? {} : { disabled }),
      });
      printRecord(io, json, o, operatorFields(o));
      return EXIT.OK;
    }
    case 'set-password': {
      const id = requirePositional(rest, 0, 'OPERATOR_ID');
      if (!values['password-stdin']) throw new UsageError('operators set-password needs --password-stdin');
      await operatorClient(values, io.env).setOperatorPassword(id, await readStdin(io));
      printDone(
        io,
        json,
        { operatorId: id, passwordSet: true },
        `password set for ${id}; its console sessions were ended`,
      );
      return EXIT.OK;
    }
    case 'revoke-access': {
      const id = requirePositional(rest, 0, 'OPERATOR_ID');
      const revoked = await operatorClient(values, io.env).revokeOperatorAccess(id);
      const line = `revoked ${revoked.sessions} session(s) and ${revoked.tokens} token(s) of ${id}`;
      printDone(io, json, revoked, line);
      return EXIT.OK;
    }
    case 'token':
      return tokenCommand(rest, values, role, io);
    default:
      throw new UsageError(sub ? `unknown subcommand "operators ${sub}"` : 'operators needs a subcommand');
  }
}

async function tokenCommand(
  positionals: string[],
  values: Parameters<typeof operatorClient>[0] & { name?: string; 'expires-at'?: string; json?: boolean },
  role: OperatorRole | undefined,
  io: Io,
): Promise<number> {
  const [action, ...rest] = positionals;
  const op = operatorClient(values, io.env);
  if (action === 'create') {
    const id = requirePositional(rest, 0, 'OPERATOR_ID');
    const token = await op.createOperatorToken(id, {
      ...(values.name ? { name: values.name } : {}),
      ...(role ? { role } : {}),
      ...(values['expires-at'] ? { expiresAt: values['expires-at'] } : {}),
    });
    printRecord(io, values.json, token, [
      ['token id', token.id],
      ['token', `${token.token}   (shown only now)`],
      ['role', token.role],
      ['expires', token.expiresAt],
    ]);
    return EXIT.OK;
  }
  if (action === 'revoke') {
    const id = requirePositional(rest, 0, 'OPERATOR_ID');
    const tokenId = requirePositional(rest, 1, 'TOKEN_ID');
    await op.revokeOperatorToken(id, tokenId);
    printDone(io, values.json, { revoked: tokenId }, `token ${tokenId} revoked; it no longer works`);
    return EXIT.OK;
  }
  throw new UsageError(
    action ? `unknown subcommand "operators token ${action}"` : 'operators token needs create or revoke',
  );
}

export async function auditCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...ADMIN_OPTIONS,
    ...valueOptions('actor', 'action', 'since', 'until', 'limit'),
  });
  if (values.help) return printHelp(io, AUDIT_HELP);
  const filter: AuditFilter = {
    actor: values.actor,
    action: values.action,
    since: values.since,
    until: values.until,
  };
  switch (positionals[0]) {
    case 'list': {
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be 1 to 1000');
      const { entries, next } = await operatorClient(values, io.env).listAudit({ ...filter, limit });
      if (values.json) printJson(io, { entries, next: next ?? null });
      else {
        printTable(
          io,
          ['AT', 'ACTOR', 'ACTION', 'RESULT', 'TARGET'],
          entries.map((e) => [
            e.at,
            e.actor,
            e.action,
            `${e.result.status} ${e.result.outcome}${e.result.reason ? `: ${e.result.reason}` : ''}`,
            Object.entries(e.target)
              .map(([k, v]) => `${k}=${v}`)
              .join(' '),
          ]),
        );
        if (next) io.stderr.write('more entries: narrow the filters or raise --limit (or use audit export)\n');
      }
      return EXIT.OK;
    }
    case 'export':
      await exportAudit(values, filter, io);
      return EXIT.OK;
    default:
      throw new UsageError(
        positionals[0] ? `unknown subcommand "audit ${positionals[0]}"` : 'audit needs list or export',
      );
  }
}

/** Streams GET /admin/v1/audit/export to stdout as it arrives (the log may be large). */
async function exportAudit(values: Parameters<typeof operatorConnection>[0], filter: AuditFilter, io: Io) {
  const { baseUrl, adminToken } = operatorConnection(values, io.env);
  const url = new URL('/admin/v1/audit/export', baseUrl);
  for (const [k, v] of Object.entries(filter)) if (v) url.searchParams.set(k, String(v));
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${adminToken}`, 'user-agent': 'cleaver-cli' },
      signal: io.signal,
    });
  } catch (error) {
    throw new CleaverNetworkError('GET', url.toString(), error);
  }
  if (res.status !== 200 || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { title?: string };
    const title = body.title ?? res.statusText;
    const ErrorType = res.status === 401 || res.status === 403 ? CleaverAuthError : CleaverApiError;
    throw new ErrorType(res.status, title, 'GET', url.pathname, body);
  }
  const out = io.stdout;
  await pipeline(
    res.body,
    new Writable({
      write(chunk, _encoding, done) {
        out.write(chunk) ? done() : out.once('drain', done);
      },
    }),
  );
}
