import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { findForm, optionShuffledQuestions, questionsOf, type PresentedOrder, type ResolvedChoice, type ResolvedForm, type ResolvedQuestion } from '../forms/index.js';
import { listResponses } from './list-responses.js';
import type { ResponseFilter } from './response-filter.js';
import type { ResponseItemRow } from './response-columns.js';

/** A cell of an export: text, a number, a yes/no, or empty. */
export type ExportCell = string | number | boolean | null;

export interface ExportInput extends ResponseFilter {
  /** Options, rows, columns and question headers by their keys instead of their labels. */
  keys: boolean;
}

/** Rows per scan page: the scan's own keyset pages, so memory holds one page whatever the total. */
const EXPORT_PAGE = 500;

const RESPONDENT_FIELDS = ['name', 'email', 'phone', 'externalId'] as const;

function choiceText(choices: ResolvedChoice[] | undefined, id: string, keys: boolean): string {
  const choice = choices?.find((c) => c.id === id);
  return choice ? (keys ? choice.key : choice.name) : id;
}

/** One answer as one cell: choices by label (or key), lists joined, a matrix as "row: column" pairs. */
function answerCell(question: ResolvedQuestion, value: unknown, keys: boolean): ExportCell {
  if (value === undefined || value === null) return null;
  switch (question.type) {
    case 'RADIO':
    case 'SELECT':
      return choiceText(question.options, String(value), keys);
    case 'CHECKBOX':
      return (value as string[]).map((id) => choiceText(question.options, id, keys)).join('; ');
    case 'RANKING':
      return (value as string[]).map((id) => choiceText(question.options, id, keys)).join(' > ');
    case 'MATRIX':
      return Object.entries(value as Record<string, string>)
        .map(([row, column]) => `${choiceText(question.rows, row, keys)}: ${choiceText(question.columns, column, keys)}`)
        .join('; ');
    case 'FILE':
      return (value as { name: string }[]).map((file) => file.name).join('; ');
    default:
      return typeof value === 'number' || typeof value === 'boolean' ? value : String(value);
  }
}

/**
 * The order a respondent was shown (presentedOrder), as columns only forms that shuffle get, so a
 * plain form's export is unchanged: for each question of a section with shuffleQuestions,
 * `position.<question>`, its 1-based place in its section as shown; for each question whose options
 * were shuffled, `optionsShown.<question>`, its choices in the order shown, joined by "; ". Empty
 * when the response holds no order (an import, a public submit through the API without a token).
 */
function orderColumns(content: ResolvedForm, keys: boolean) {
  const name = (q: ResolvedQuestion) => (keys ? q.key : q.name);
  return content.sections.flatMap((section) => [
    ...(section.shuffleQuestions ? section.questions : []).map((q) => ({
      header: `position.${name(q)}`,
      cell: (order: PresentedOrder | null | undefined): ExportCell => {
        const place = order?.[section.id]?.questions?.indexOf(q.id) ?? -1;
        return place < 0 ? null : place + 1;
      },
    })),
    ...optionShuffledQuestions(section).map((q) => ({
      header: `optionsShown.${name(q)}`,
      cell: (order: PresentedOrder | null | undefined): ExportCell => {
        const shown = order?.[section.id]?.options?.[q.id];
        return shown ? shown.map((id) => choiceText(q.options, id, keys)).join('; ') : null;
      },
    })),
  ]);
}

/**
 * The export of a filtered scan: its header, the scan's total (taken when the scan starts, as the
 * API's first page does) and the rows, read page by page over the same keyset scan as
 * GET /forms/{id}/responses, in its order. Columns: id, createdAt, completedAt, the respondent's
 * fields, one per declared dim (canonical values, as the API gives them), one per question, then
 * the order columns of a form that shuffles (orderColumns).
 * The first page is read before this returns, so a bad filter or an unknown form fails here, as an
 * error answer, not in the middle of a file.
 */
export async function exportRows(db: Db, deps: { cursorSecret: string }, input: ExportInput) {
  const form = await findForm(db, {}, { companyId: input.companyId, id: input.formId });
  if (!form) throw notFound('Form');
  const questions = questionsOf(form.content);
  const dimKeys = form.content.dims.map((dim) => dim.key);
  const order = orderColumns(form.content, input.keys);
  const header = [
    'id',
    'createdAt',
    'completedAt',
    ...RESPONDENT_FIELDS.map((field) => `respondent.${field}`),
    ...dimKeys.map((key) => `dim.${key}`),
    ...questions.map((q) => (input.keys ? q.key : q.name)),
    ...order.map((column) => column.header),
  ];
  const toRow = (item: ResponseItemRow): ExportCell[] => [
    item.id,
    item.createdAt,
    item.completedAt,
    ...RESPONDENT_FIELDS.map((field) => item.respondent?.[field] ?? null),
    ...dimKeys.map((key) => item.dims[key] ?? null),
    ...questions.map((q) => answerCell(q, item.answers?.[q.id], input.keys)),
    ...order.map((column) => column.cell(item.presentedOrder)),
  ];
  const scan = {
    companyId: input.companyId,
    formId: input.formId,
    from: input.from,
    to: input.to,
    dims: input.dims,
    includeAnswers: true,
    includePresentedOrder: order.length > 0,
    limit: EXPORT_PAGE,
  };
  const first = await listResponses(db, deps, scan);
  async function* rows(): AsyncGenerator<ExportCell[]> {
    let page = first;
    for (;;) {
      for (const item of page.items) yield toRow(JSON.parse(item) as ResponseItemRow);
      if (!page.nextCursor) return;
      page = await listResponses(db, deps, { ...scan, cursor: page.nextCursor });
    }
  }
  return { header, total: first.total ?? 0, rows: rows() };
}
