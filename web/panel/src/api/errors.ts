/**
 * Error envelopes as a person reads them: a message for the form, and the field errors of a
 * VALIDATION_ERROR (`details.fields[]`, the server's one vocabulary, src/lib/field-errors.ts)
 * placed beside their fields with react-hook-form's setError.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { ErrorEnvelope } from './client';

export interface FieldProblem {
  path: string;
  code: string;
  message: string;
}

/** Thrown by query and mutation functions when the API answers an error envelope. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null,
  ) {
    super(message);
    this.name = 'ApiProblem';
  }

  get fields(): FieldProblem[] {
    const fields = this.details?.fields;
    return Array.isArray(fields) ? fields.filter(isFieldProblem) : [];
  }
}

function isFieldProblem(value: unknown): value is FieldProblem {
  if (typeof value !== 'object' || value === null) return false;
  const { path, code, message } = value as Record<string, unknown>;
  return typeof path === 'string' && typeof code === 'string' && typeof message === 'string';
}

/** The envelope of a failed answer (or a network failure) as an ApiProblem. */
export function toProblem(status: number, body: unknown): ApiProblem {
  const error = (body as Partial<ErrorEnvelope> | undefined)?.error;
  if (error && typeof error.code === 'string') {
    const details = typeof error.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : null;
    return new ApiProblem(status, error.code, error.message ?? '', details);
  }
  return new ApiProblem(status, status === 0 ? 'NETWORK' : 'INTERNAL_ERROR', '', null);
}

/** openapi-fetch's result: the data on success, an ApiProblem thrown otherwise. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiProblem(0, 'NETWORK', '', null);
  }
  if (result.error !== undefined || !result.response.ok || result.data === undefined) throw toProblem(result.response.status, result.error);
  return result.data;
}

/**
 * Puts each field error beside its field (paths the form does not have stay in the returned list,
 * for a message above the form). `known` names the form's fields.
 */
export function applyFieldErrors<T extends FieldValues>(
  problem: ApiProblem,
  setError: UseFormSetError<T>,
  known: readonly Path<T>[],
  describe: (field: FieldProblem) => string = (field) => field.message,
): FieldProblem[] {
  const rest: FieldProblem[] = [];
  let first = true;
  for (const field of problem.fields) {
    const name = known.find((candidate) => candidate === field.path);
    if (!name) {
      rest.push(field);
      continue;
    }
    setError(name, { type: field.code, message: describe(field) }, { shouldFocus: first });
    first = false;
  }
  return rest;
}
