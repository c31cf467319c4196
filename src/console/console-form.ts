// Console forms are checked against TypeBox schemas, the API's own where a form posts what an
// /admin/v1 route takes (style.md#habits), so a value the operator typed or chose that the service would
// refuse is a 400 page naming the field in the operator's language, never a 500 from deeper down.
// Form values are text: each is trimmed (secrets excepted), an empty one counts as not sent, and
// TypeBox converts the rest to the schema's types ("true" → true, "30" → 30) before the check.
import type { FastifyRequest } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { invalidInput, type Message } from './console-errors.js';
import { formOf } from './console-kit.js';
import type { Messages } from './messages/en.js';

/** Fields kept exactly as typed (a password may start or end with a space). */
const SECRET = /password|token|secret/i;

type FieldOf<S extends TObject> = keyof S['properties'] & string;

export interface FormRules<S extends TObject> {
  /** A field's name for the operator where `messages.fields` has none (or says it differently). */
  labels?: Partial<Record<FieldOf<S>, (t: Messages) => string>>;
  /** What to say of any refusal of a field (given the text sent), where the generic words say too little. */
  messages?: Partial<Record<FieldOf<S>, (t: Messages, sent: string) => string>>;
}

/** The form's fields that `schema` declares, checked and converted; a 400 naming the first bad one. */
export function readForm<S extends TObject>(request: FastifyRequest, schema: S, rules: FormRules<S> = {}): Static<S> {
  const form = formOf(request);
  const sent: Record<string, string> = {};
  for (const name of Object.keys(schema.properties)) {
    const raw = form[name];
    const value = raw === undefined || SECRET.test(name) ? raw : raw.trim();
    if (value !== undefined && value !== '') sent[name] = value;
  }
  const converted = Value.Convert(schema, sent);
  const [error] = Value.Errors(schema, converted);
  if (!error) return converted as Static<S>;
  const field =
    error.keyword === 'required'
      ? String((error.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? '')
      : (error.instancePath.split('/')[1] ?? '');
  const fieldSchema = (schema.properties as Record<string, TSchema>)[field];
  const override = rules.messages?.[field as FieldOf<S>];
  const label = (t: Messages) =>
    rules.labels?.[field as FieldOf<S>]?.(t) ?? (t.fields as Record<string, string>)[field] ?? field;
  const value = sent[field];
  const say: Message = override ? (t) => override(t, value ?? '') : refusal(fieldSchema, value, label);
  throw invalidInput(say, field || undefined);
}

/** The generic words for a refused value, from what its schema asks. */
function refusal(schema: TSchema | undefined, value: string | undefined, label: (t: Messages) => string): Message {
  const s = (schema ?? {}) as { minLength?: number; maxLength?: number; minimum?: number; maximum?: number };
  const type = (schema as { type?: unknown } | undefined)?.type;
  const choices = (schema as { enum?: unknown } | undefined)?.enum;
  if (value === undefined) return (t) => t.errors.required(label(t));
  if (Array.isArray(choices) || type === 'boolean') return (t) => t.errors.notAChoice(label(t), value);
  if (type === 'integer' && s.minimum !== undefined && s.maximum !== undefined) {
    const [min, max] = [s.minimum, s.maximum];
    return (t) => t.errors.wholeNumber(label(t), min, max);
  }
  const length = [...value].length;
  if (s.maxLength !== undefined && length > s.maxLength) {
    const max = s.maxLength;
    return (t) => t.errors.tooLong(label(t), max);
  }
  if (s.minLength !== undefined && s.maxLength !== undefined && length < s.minLength) {
    const [min, max] = [s.minLength, s.maxLength];
    return (t) => t.errors.lengthBetween(label(t), min, max);
  }
  return (t) => t.errors.badValue(label(t));
}
