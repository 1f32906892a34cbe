/** An answer as the respondent saw it: option labels instead of ids, yes/no in words, lists joined. */
import type { TFunction } from 'i18next';
import type { Question } from './responses-api';

const label = (choices: Question['options'] | undefined, id: string) => choices?.find((choice) => choice.id === id)?.name ?? id;

export function answerText(t: TFunction, question: Question, value: unknown): string {
  if (value === undefined || value === null) return '';
  switch (question.type) {
    case 'RADIO':
    case 'SELECT':
      return label(question.options, String(value));
    case 'CHECKBOX':
      return (value as string[]).map((id) => label(question.options, id)).join('; ');
    case 'RANKING':
      return (value as string[]).map((id, i) => `${i + 1}. ${label(question.options, id)}`).join('  ');
    case 'MATRIX':
      return Object.entries(value as Record<string, string>)
        .map(([row, column]) => `${label(question.rows, row)}: ${label(question.columns, column)}`)
        .join('; ');
    case 'BOOLEAN':
      return value ? t('response.yes') : t('response.no');
    case 'FILE': {
      const files = value as { name: string }[];
      return t('response.files', { count: files.length, names: files.map((file) => file.name).join(', ') });
    }
    default:
      return String(value);
  }
}
