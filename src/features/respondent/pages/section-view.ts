/**
 * The view of one section for the form template: every question of the section with its
 * current answer, its error and whether the conditions show it now. Questions hidden now are
 * still rendered (with `hidden`) so the page script can show them at once; without JavaScript
 * the server shows them on the next step (see form-flow.ts).
 */
import type { FieldError } from '../../../lib/errors.js';
import type { Answers, ResolvedForm, ResolvedQuestion, ResolvedSection } from '../../forms/index.js';
import { STAR_DEFAULT_MAX } from '../../forms/index.js';
import { fieldName } from './read-answers.js';
import { fill, type PageStrings } from './strings.js';

interface Choice {
  value: string;
  label: string;
  checked: boolean;
  inputId: string;
  /** a star: the label is read by screen readers, the glyph is seen */
  glyph?: string;
}

/** How a choice question's options are laid out: a list, a row, tappable stars, or a one-row segmented scale. */
export type ChoiceLayout = 'list' | 'inline' | 'stars' | 'scale';

/** A RANGE becomes a segmented scale when it has at most this many points. */
const MAX_SEGMENTS = 11;

export interface QuestionView {
  id: string;
  name: string;
  description?: string;
  mandatory: boolean;
  hidden: boolean;
  error?: string;
  describedBy?: string;
  field: string;
  inputId: string;
  /** exactly one of the kind flags is set */
  isText?: boolean;
  isParagraph?: boolean;
  isSelect?: boolean;
  isChoices?: boolean;
  isRanking?: boolean;
  isMatrix?: boolean;
  isFile?: boolean;
  inputType?: string;
  value?: string;
  /** strings: Mustache treats the number 0 as false */
  min?: string;
  max?: string;
  step?: string;
  inputMode?: string;
  note?: string;
  choiceType?: 'radio' | 'checkbox';
  layout?: ChoiceLayout;
  /** a scale's end labels, under its first and last point */
  ends?: { low: string; high: string };
  /** DATETIME: the page script shows and reads it in the browser's time zone */
  zoned?: boolean;
  moveUp?: string;
  moveDown?: string;
  choices?: Choice[];
  ranks?: { field: string; inputId: string; label: string; up: string; down: string; positions: { value: number; selected: boolean }[] }[];
  columns?: { id: string; name: string; headerId: string }[];
  rows?: { id: string; name: string; headerId: string; cells: (Choice & { labelledBy: string })[] }[];
  files?: { name: string }[];
  choosePrompt?: string;
}

const isoDateTimeToLocal = (value: unknown) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString().slice(0, 16) : '';

function choices(q: ResolvedQuestion, values: { value: string; label: string }[], chosen: (v: string) => boolean): Choice[] {
  return values.map(({ value, label }, index) => ({ value, label, checked: chosen(value), inputId: `f-${q.id}-${index}` }));
}

/** A section sent back shows its fields as typed: `typed` holds them (absent: show the answers). */
export type TypedFields = Record<string, string[]>;

function kindOf(q: ResolvedQuestion, answer: unknown, s: PageStrings, typed: TypedFields | undefined): Partial<QuestionView> {
  const scalar = answer === undefined || answer === null ? '' : String(answer);
  const asTyped = (shown: string) => typed?.[fieldName(q.id)]?.[0] ?? shown;
  switch (q.type) {
    case 'TEXT':
      return { isText: true, inputType: 'text', value: asTyped(scalar) };
    case 'PARAGRAPH':
      return { isParagraph: true, value: asTyped(scalar) };
    case 'DATE':
      return { isText: true, inputType: 'date', value: asTyped(scalar) };
    case 'TIME':
      return { isText: true, inputType: 'time', value: asTyped(scalar) };
    case 'DATETIME': {
      // the page script posts the instant in UTC (Z); without script the field is read as UTC
      const typedValue = typed?.[fieldName(q.id)]?.[0];
      const shown = typedValue === undefined ? isoDateTimeToLocal(answer) : /(Z|[+-]\d{2}:\d{2})$/.test(typedValue) ? isoDateTimeToLocal(typedValue) : typedValue;
      return { isText: true, inputType: 'datetime-local', value: shown, note: s.utcNote, zoned: true };
    }
    case 'NUMBER':
      return { isText: true, inputType: 'number', value: asTyped(scalar), min: q.min?.toString(), max: q.max?.toString(), step: q.step?.toString() ?? 'any', inputMode: numericKeyboard(q) };
    case 'RANGE': {
      const points = segments(q);
      if (points) return { isChoices: true, choiceType: 'radio', layout: 'scale', choices: choices(q, points, (v) => v === asTyped(scalar)) };
      return { isText: true, inputType: 'number', value: asTyped(scalar), min: q.min?.toString(), max: q.max?.toString(), step: q.step?.toString() ?? 'any', inputMode: numericKeyboard(q) };
    }
    case 'NPS': {
      const points = Array.from({ length: 11 }, (_, n) => ({ value: String(n), label: String(n) }));
      return { isChoices: true, choiceType: 'radio', layout: 'scale', choices: choices(q, points, (v) => v === scalar), ends: { low: s.npsLow, high: s.npsHigh } };
    }
    case 'STAR': {
      const max = q.max ?? STAR_DEFAULT_MAX;
      const points = Array.from({ length: max }, (_, i) => ({ value: String(i + 1), label: fill(s.stars, { n: i + 1, max }) }));
      return { isChoices: true, choiceType: 'radio', layout: 'stars', choices: choices(q, points, (v) => v === scalar).map((c) => ({ ...c, glyph: '★' })) };
    }
    case 'BOOLEAN': {
      const points = [{ value: 'true', label: s.yes }, { value: 'false', label: s.no }];
      return { isChoices: true, choiceType: 'radio', layout: 'inline', choices: choices(q, points, (v) => v === scalar) };
    }
    case 'RADIO':
    case 'CHECKBOX': {
      const chosen = new Set(Array.isArray(answer) ? answer.map(String) : [scalar]);
      const options = (q.options ?? []).map((o) => ({ value: o.id, label: o.name }));
      return { isChoices: true, choiceType: q.type === 'RADIO' ? 'radio' : 'checkbox', layout: 'list', choices: choices(q, options, (v) => chosen.has(v)) };
    }
    case 'SELECT':
      return { isSelect: true, choosePrompt: s.choose, choices: choices(q, (q.options ?? []).map((o) => ({ value: o.id, label: o.name })), (v) => v === scalar) };
    case 'RANKING':
      return { isRanking: true, ranks: rankingView(q, answer, s, typed) };
    case 'MATRIX':
      return { isMatrix: true, ...matrixView(q, answer) };
    case 'FILE':
      return { isFile: true, files: Array.isArray(answer) ? answer.map((file) => ({ name: String((file as { name?: unknown }).name ?? '') })) : [] };
  }
}

/** Whole numbers from a non-negative minimum need no decimal point or minus: the phone's digit pad. */
function numericKeyboard(q: ResolvedQuestion): string {
  const whole = (n: number | undefined) => n === undefined || Number.isInteger(n);
  return whole(q.step) && q.step !== undefined && whole(q.min) && (q.min ?? -1) >= 0 ? 'numeric' : 'decimal';
}

/** The points of a bounded RANGE with few enough steps for a one-row scale, else null (a number field). */
function segments(q: ResolvedQuestion): { value: string; label: string }[] | null {
  if (q.min === undefined || q.max === undefined) return null;
  const step = q.step ?? 1;
  const count = Math.round((q.max - q.min) / step) + 1;
  if (!(step > 0) || count < 2 || count > MAX_SEGMENTS || Math.abs(q.min + (count - 1) * step - q.max) > 1e-9) return null;
  return Array.from({ length: count }, (_, i) => {
    const value = String(Number((q.min! + i * step).toFixed(6)));
    return { value, label: value };
  });
}

/**
 * Options listed in the saved order (unranked ones after), each with a position select; a ranking
 * sent back (positions missing or repeated) shows the positions as typed.
 */
function rankingView(q: ResolvedQuestion, answer: unknown, s: PageStrings, typed: TypedFields | undefined): QuestionView['ranks'] {
  const options = q.options ?? [];
  const order = Array.isArray(answer) ? answer.map(String) : [];
  const typedPosition = (id: string) => Number(typed?.[fieldName(q.id, id)]?.[0]) || 0;
  const position = typed && options.some((o) => typed[fieldName(q.id, o.id)]) ? typedPosition : (id: string) => order.indexOf(id) + 1;
  const listed = [...options].sort((a, b) => (position(a.id) || Infinity) - (position(b.id) || Infinity));
  return listed.map((option) => ({
    field: fieldName(q.id, option.id),
    inputId: `f-${q.id}-${option.id}`,
    label: fill(s.position, { option: option.name }),
    up: fill(s.moveUp, { option: option.name }),
    down: fill(s.moveDown, { option: option.name }),
    positions: options.map((_, i) => ({ value: i + 1, selected: position(option.id) === i + 1 })),
  }));
}

function matrixView(q: ResolvedQuestion, answer: unknown): Pick<QuestionView, 'columns' | 'rows'> {
  const cells = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
  const columns = (q.columns ?? []).map((c) => ({ id: c.id, name: c.name, headerId: `c-${q.id}-${c.id}` }));
  const rows = (q.rows ?? []).map((row) => ({
    id: row.id,
    name: row.name,
    headerId: `r-${q.id}-${row.id}`,
    cells: columns.map((column, index) => ({
      value: column.id,
      label: column.name,
      checked: cells[row.id] === column.id,
      inputId: `f-${q.id}-${row.id}-${index}`,
      labelledBy: `r-${q.id}-${row.id} c-${q.id}-${column.id}`,
      field: fieldName(q.id, row.id),
    })),
  }));
  return { columns, rows };
}

export function questionView(q: ResolvedQuestion, answer: unknown, visible: boolean, error: string | undefined, s: PageStrings, typed?: TypedFields): QuestionView {
  const describedBy = [q.description ? `d-${q.id}` : null, error ? `e-${q.id}` : null].filter(Boolean).join(' ');
  return {
    id: q.id,
    name: q.name,
    description: q.description,
    mandatory: q.mandatory,
    hidden: !visible,
    error,
    describedBy: describedBy || undefined,
    field: fieldName(q.id),
    inputId: `f-${q.id}`,
    ...kindOf(q, answer, s, typed),
  };
}

/** The message shown under each question: the first error whose path is the answer or inside it. */
export function errorsByQuestion(errors: FieldError[], s: PageStrings, fileQuestions: Set<string> = new Set()): Map<string, string> {
  const byQuestion = new Map<string, string>();
  for (const error of errors) {
    const questionId = /^answers\.([^.[]+)/.exec(error.path)?.[1];
    if (!questionId || byQuestion.has(questionId)) continue;
    byQuestion.set(questionId, fileQuestions.has(questionId) ? fileMessage(error.code, s) : (s.errors[error.code] ?? error.message));
  }
  return byQuestion;
}

/** An upload refused by size or type says so; a file answer's other faults read as for any field. */
function fileMessage(code: FieldError['code'], s: PageStrings): string {
  if (code === 'too_large') return s.errors.file_too_large;
  if (code === 'invalid_value' || code === 'invalid_format') return s.errors.file_type;
  return s.errors[code];
}

export function sectionQuestions(section: ResolvedSection, answers: Answers, visible: Set<string>, errors: Map<string, string>, s: PageStrings, typed?: TypedFields): QuestionView[] {
  return section.questions.map((q) => questionView(q, answers[q.id], visible.has(q.id), errors.get(q.id), s, typed));
}

/** The rules the page script needs (conditions, types, bounds), without texts: the JSON embedded in the page. */
export function scriptRules(content: ResolvedForm): ResolvedForm {
  return {
    version: 1,
    dims: [],
    sections: content.sections.map(({ id, visibleIf, questions }) => ({
      id,
      key: '',
      name: '',
      visibleIf,
      questions: questions.map((q) => ({ ...q, key: '', name: '', description: undefined, options: q.options?.map((o) => ({ ...o, key: '', name: '' })), rows: q.rows?.map((r) => ({ ...r, key: '', name: '' })), columns: q.columns?.map((c) => ({ ...c, key: '', name: '' })) })),
    })),
  };
}
