import type { TFunction } from 'i18next';
import { ApiProblem, type FieldProblem } from '../api/errors';

/** A refusal as a sentence in the person's language (the server's message is English and for developers). */
export function problemText(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiProblem)) return t('problem.unknown');
  switch (error.code) {
    case 'NETWORK':
      return t('problem.network');
    case 'RATE_LIMITED':
      return t('problem.rateLimited');
    case 'FORBIDDEN':
      return t('problem.forbidden');
    case 'NOT_FOUND':
      return t('problem.notFound');
    case 'VALIDATION_ERROR':
      return t('problem.validation');
    default:
      return t('problem.unknown');
  }
}

/** A field error in the person's language, by its code (src/lib/field-errors.ts); else the server's text. */
export function fieldText(t: TFunction, field: FieldProblem): string {
  return t(`field.${field.code}`, { defaultValue: field.message });
}
