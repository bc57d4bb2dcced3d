// Forms: the urlencoded body parser, and validation of a form against the API's own TypeBox schema with
// the same validator (Fastify's Ajv) and the same problem wording (http/errors.ts), field by field.
import type { TObject, TSchema, Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type FieldProblem } from '../core/errors.js';
import { validationProblems } from '../http/errors.js';

export type FormFields = Readonly<Record<string, string>>;
/** Field name to the problem shown under it. */
export type FieldErrors = Readonly<Record<string, string>>;

export function registerFormParser(app: FastifyInstance, bodyLimitBytes: number): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: bodyLimitBytes }, (_request, body, done) => {
    const fields: Record<string, string> = Object.create(null);
    for (const [name, value] of new URLSearchParams(body as string)) fields[name] = value;
    done(null, fields);
  });
}

/** The fields of a parsed form body (anything else, e.g. a JSON body, counts as an empty form). */
export function formFields(request: FastifyRequest): FormFields {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** Ajv's pattern message quotes the regular expression; a person needs the rule in words. */
const plain = (problem: string): string => (problem.startsWith('must match pattern') ? 'is not in the expected format' : problem);

export type FormResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: FieldErrors };

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** A form field as the JSON value the API's schema expects: numbers for number fields, absent when empty. */
function coerce(schema: TSchema, raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const type = (schema as { type?: unknown }).type;
  if (text === '') return undefined;
  if ((type === 'number' || type === 'integer') && NUMBER_TEXT.test(text)) return Number(text);
  return raw;
}

const fieldSchemas = new WeakMap<TObject, Map<string, object>>();

function fieldSchemaOf(schema: TObject, name: string): object {
  let byName = fieldSchemas.get(schema);
  if (!byName) fieldSchemas.set(schema, (byName = new Map()));
  let one = byName.get(name);
  if (!one) {
    const required = (schema.required ?? []).includes(name) ? [name] : [];
    one = { type: 'object', properties: { [name]: schema.properties[name] }, required };
    byName.set(name, one);
  }
  return one;
}

/**
 * Validates each field on its own (so every wrong field gets its message at once), then the whole body
 * against the schema. `fixed` adds values the page decides (e.g. an action from the button pressed).
 */
export function validateForm<T extends TObject>(request: FastifyRequest, schema: T, fields: FormFields, fixed: Record<string, unknown> = {}): FormResult<Static<T>> {
  const value: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const coerced = name in fixed ? fixed[name] : coerce(property as TSchema, fields[name]);
    if (coerced !== undefined) value[name] = coerced;
  }
  const errors: Record<string, string> = {};
  for (const name of Object.keys(schema.properties)) {
    const validate = request.compileValidationSchema(fieldSchemaOf(schema, name));
    if (!validate(value)) {
      for (const problem of validationProblems(validate.errors ?? [])) errors[problem.field] ??= plain(problem.problem);
    }
  }
  if (Object.keys(errors).length === 0) {
    const validate = request.compileValidationSchema(schema);
    if (!validate(value)) for (const problem of validationProblems(validate.errors ?? [])) errors[problem.field] ??= plain(problem.problem);
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: value as Static<T> };
}

/** A service's refusal as field errors when it names fields (VALIDATION_FAILED, CONFLICT on an email...). */
export function fieldErrorsOf(error: unknown): FieldErrors | null {
  if (!(error instanceof AppError) || error.status >= 500) return null;
  const problems: readonly FieldProblem[] = error.errors ?? [];
  if (problems.length === 0) return { _form: error.detail };
  return Object.fromEntries(problems.map((p) => [p.field, p.problem]));
}
