import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldError } from '../../lib/errors.js';
import { validationError } from '../../lib/errors.js';

/**
 * Platform rules for what a request may carry, applied before schema validation on every /v1 route:
 * - query integers are plain decimal digits only: Ajv's coercion would otherwise read `Infinity`,
 *   `1e400`, `0x10`, `0b11`, `" 5 "`, `+5` or `1.0` as numbers (and Infinity skips the bounds);
 * - no string anywhere (query, path, JSON body keys or values) may hold NUL, nor a JSON body string a
 *   lone UTF-16 surrogate (`\ud800`): Postgres refuses both in text and jsonb;
 * - a JSON body nests at most MAX_JSON_DEPTH levels: deeper values overflow the stack of
 *   JSON.stringify and of Postgres' jsonb parser further on;
 * - a route that declares no query parameters refuses any (unknown parameters are never ignored).
 */
export const MAX_JSON_DEPTH = 64;
const DECIMAL_INTEGER = /^-?(?:0|[1-9][0-9]{0,15})$/;
const NUL = '\u0000';
/** With the u flag a surrogate class matches only unpaired halves. */
const UNPAIRED = /[\uD800-\uDFFF]/u;
const refused = (text: string) => text.includes(NUL) || UNPAIRED.test(text);

interface ObjectSchema {
  properties?: Record<string, { type?: string }>;
}

function textError(path: string): FieldError {
  return { path, code: 'invalid_format', message: 'must not contain NUL (\\u0000) or an unpaired surrogate' };
}

/** Field errors for NUL in any key or string of a parsed value, and for nesting past the limit; iterative, so depth cannot overflow the stack. */
export function valueErrors(value: unknown, rootName: string): FieldError[] {
  const found: FieldError[] = [];
  const stack: Array<[unknown, string, number]> = [[value, '', 0]];
  while (stack.length > 0) {
    const [current, path, depth] = stack.pop()!;
    if (typeof current === 'string') {
      if (refused(current)) found.push(textError(path || rootName));
    } else if (current !== null && typeof current === 'object') {
      if (depth >= MAX_JSON_DEPTH) {
        found.push({ path: path || rootName, code: 'invalid_value', message: `nests deeper than ${MAX_JSON_DEPTH} levels` });
        continue;
      }
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        if (refused(key)) found.push(textError(childPath));
        else stack.push([child, childPath, depth + 1]);
      }
    }
  }
  return found;
}

function queryErrors(query: Record<string, unknown>, schema: ObjectSchema | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (!schema) {
      errors.push({ path: name, code: 'unknown_field', message: 'this route takes no query parameters' });
      continue;
    }
    const values = Array.isArray(value) ? value : [value];
    if (name.includes(NUL) || values.some((v) => typeof v === 'string' && v.includes(NUL))) {
      errors.push(textError(name.includes(NUL) ? 'query' : name));
      continue;
    }
    const type = schema.properties?.[name]?.type;
    if (type !== 'integer') continue;
    if (typeof value === 'string' && DECIMAL_INTEGER.test(value)) query[name] = Number(value);
    else errors.push({ path: name, code: 'invalid_type', message: 'must be one plain decimal integer' });
  }
  return errors;
}

async function checkInput(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema?.querystring as ObjectSchema | undefined;
  const errors = [
    ...queryErrors((request.query ?? {}) as Record<string, unknown>, schema),
    ...valueErrors(request.params, 'params'),
    ...valueErrors(request.body, 'body'),
  ];
  if (errors.length > 0) throw validationError(errors);
}

export function registerStrictInput(app: FastifyInstance): void {
  app.addHook('preValidation', checkInput);
}
