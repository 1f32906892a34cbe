import type { DbOrTx } from '../../platform/db/database.js';
import { noDeps, type NoDeps } from '../../lib/service.js';
import { readCompanySettings } from '../companies/index.js';
import { findForm, questionsOf, type Answers, type ResolvedChoice, type ResolvedQuestion } from '../forms/index.js';
import { getResponse } from '../responses/index.js';
import { getCase } from './list-cases.js';

export interface ReadableAnswer {
  question: string;
  answer: string;
}

const nameOf = (choices: ResolvedChoice[] | undefined, id: unknown) => choices?.find((c) => c.id === id)?.name ?? String(id);

/** One answer as a person reads it: choices by their names, matrix rows as "row: column". */
function answerText(question: ResolvedQuestion, value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => nameOf(question.options, v)).join(', ');
  if (question.rows && value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([row, column]) => `${nameOf(question.rows, row)}: ${Array.isArray(column) ? column.map((c) => nameOf(question.columns, c)).join(', ') : nameOf(question.columns, column)}`)
      .join('; ');
  }
  if (question.options) return nameOf(question.options, value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function readableAnswers(questions: ResolvedQuestion[], answers: Answers): ReadableAnswer[] {
  return questions.filter((q) => answers[q.id] !== undefined && answers[q.id] !== null).map((q) => ({ question: q.name, answer: answerText(q, answers[q.id]) }));
}

/**
 * A case as the panel's case page shows it: the case and its history (the API's getCase), the
 * response that opened it with its answers in the form's words (none on a chained case), and the
 * company's time zone, in which deadlines are counted and shown.
 */
export async function readCasePage(db: DbOrTx, _deps: NoDeps, input: { companyId: string; id: string }) {
  const found = await getCase(db, noDeps, input);
  const [settings, response, form] = await Promise.all([
    readCompanySettings(db, noDeps, { companyId: input.companyId }),
    found.responseId ? getResponse(db, noDeps, { companyId: input.companyId, id: found.responseId }) : null,
    findForm(db, noDeps, { companyId: input.companyId, id: found.formId }),
  ]);
  return {
    ...found,
    timeZone: settings.timeZone,
    response: response && {
      id: response.id,
      createdAt: response.createdAt,
      respondentName: response.respondent?.name ?? null,
      answers: form ? readableAnswers(questionsOf(form.content), response.answers) : [],
    },
  };
}
