// The console's own refusals (a form value it checks itself, a missing page), in the operator's
// language. The English text is the error's title, so the audit log and server logs read the same
// whatever language the operator uses; the page shows the message of the request's language.
import { AppError } from '../lib/errors.js';
import { en, type Messages } from './messages/en.js';

export type Message = (t: Messages) => string;

export class ConsoleError extends AppError {
  constructor(
    status: number,
    readonly describe: Message,
    /** The form field at fault, marked on the form shown again (form-retry.ts). */
    readonly field?: string,
  ) {
    super(status, describe(en));
  }
}

/** 400: a value the operator typed or chose is not acceptable. */
export const invalidInput = (describe: Message, field?: string) => new ConsoleError(400, describe, field);

/** 404: the page or the thing it names does not exist. */
export const notFoundPage = (describe: Message) => new ConsoleError(404, describe);

/** 403: a form posted without the session's CSRF token (an old tab, another site). */
export const badCsrf = () => new ConsoleError(403, (t) => t.errors.csrf);

const role = (t: Messages, name: string) => (t.roles as Record<string, string>)[name] ?? name;

/**
 * Refusals of the services that console forms meet, in the operator's words. The API keeps its
 * titles (the spec fixes them, and they name API fields such as `currentPassword`); the console
 * says the same in plain language and shows the API's title only in small print under it.
 */
const KNOWN_TITLES: Array<[RegExp, (t: Messages, m: RegExpExecArray) => string]> = [
  [/^currentPassword is not correct$/, (t) => t.errors.known.wrongCurrentPassword],
  [/^password is not correct$/, (t) => t.errors.known.wrongPassword],
  [/^code is not valid/, (t) => t.errors.known.badCode],
  [/^email must be an email address$/, (t) => t.errors.known.badEmail],
  [/^An operator with this email already exists$/, (t) => t.errors.known.emailTaken],
  [/^One-time codes are already enabled/, (t) => t.errors.known.totpAlreadyOn],
  [/^(No one-time code enrolment in progress|The enrolment changed meanwhile)/, (t) => t.errors.known.totpRestart],
  [/^role must not be higher than/, (t) => t.errors.known.roleTooHigh],
  [
    /^Forbidden: this needs the (\w+) role \(yours is (\w+)\)$/,
    // Both groups are required by the pattern: the defaults never apply.
    (t, [, needed = '', yours = '']) => t.errors.known.forbidden(role(t, needed), role(t, yours)),
  ],
  [/^The bootstrap token is not an operator account/, (t) => t.errors.known.bootstrapNoAccount],
  [/^Merchant not found$/, (t) => t.errors.merchantNotFound],
  [/^Order not found$/, (t) => t.errors.orderNotFound],
  [/^Statement not found$/, (t) => t.statements.notFound],
  [/^Statement is \w+: only a CLOSED statement is marked PAID$/, (t) => t.statements.notClosed],
  [/^Operator not found$/, (t) => t.errors.operatorNotFound],
  [/^Integration key not found$/, (t) => t.errors.keyNotFound],
  [/^Token not found$/, (t) => t.errors.tokenNotFound],
  [/^Webhook delivery not found$/, (t) => t.errors.deliveryNotFound],
  [/^Homologation run not found$/, (t) => t.errors.runNotFound],
  [/^This integration key already has a RUNNING homologation run$/, (t) => t.errors.known.runAlreadyRunning],
  [/^An attempt of this delivery is in progress$/, (t) => t.errors.known.attemptInProgress],
  [/^The merchant webhook is disabled/, (t) => t.errors.known.webhookDisabled],
  [/^The merchant has no ordersWebhookURL registered$/, (t) => t.errors.known.noWebhook],
  [/^Merchant is UNAVAILABLE and does not receive orders$/, (t) => t.errors.known.merchantUnavailable],
];

/** A service's refusal in the operator's words, when the console knows it. */
export function knownTitle(title: string, t: Messages): string | undefined {
  for (const [pattern, say] of KNOWN_TITLES) {
    const m = pattern.exec(title);
    if (m) return say(t, m);
  }
  return undefined;
}
