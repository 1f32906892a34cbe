/**
 * One step of the form without JavaScript: the posted section's answers merged into the earlier
 * ones, then what the server does next. Hidden answers are dropped; errors are checked only on the
 * questions the respondent saw; a question the new answers reveal in the same section is shown
 * before moving on; the last visible section submits.
 */
import type { FieldError } from '../../../lib/errors.js';
import type { Answers, ResolvedCondition, ResolvedForm } from '../../forms/index.js';
import { dropHidden, isVisible, validateAnswers, visibleQuestionIds } from '../../forms/index.js';

export type FlowOutcome =
  /** answers: as posted, to show again; fitting: those a draft can keep */
  | { kind: 'errors'; answers: Answers; fitting: Answers; sectionIndex: number; errors: FieldError[] }
  | { kind: 'step'; answers: Answers; sectionIndex: number }
  | { kind: 'submit'; answers: Answers };

export interface StepInput {
  content: ResolvedForm;
  previous: Answers;
  sectionIndex: number;
  /** question ids shown when the section was posted */
  shown: Set<string>;
  /** the section's answers as posted (FILE answers already merged in) */
  posted: Answers;
  readErrors: FieldError[];
  action: 'next' | 'back';
}

/** Indexes of the sections the conditions show for these answers. */
export function visibleSections(content: ResolvedForm, answers: Answers): number[] {
  const shown = dropHidden(content, answers);
  return content.sections.flatMap((section, index) => (isVisible(section.visibleIf, shown) ? [index] : []));
}

/** The section to show: the asked one when visible, else the nearest visible one before it, else the first. */
export function currentSection(content: ResolvedForm, answers: Answers, asked: number): number {
  const visible = visibleSections(content, answers);
  return [...visible].reverse().find((index) => index <= asked) ?? visible[0] ?? 0;
}

/** Three-valued: a condition on a question not answered yet (at or after the current section) may still go either way. */
function mayHold(condition: ResolvedCondition | undefined, answers: Answers, decided: Set<string>): boolean | undefined {
  if (condition === undefined) return true;
  if ('all' in condition || 'any' in condition) {
    const parts = ('all' in condition ? condition.all : condition.any).map((c) => mayHold(c, answers, decided));
    const decisive = 'all' in condition ? false : true;
    if (parts.includes(decisive)) return decisive;
    return parts.includes(undefined) ? undefined : !decisive;
  }
  return decided.has(condition.questionId) ? isVisible(condition, answers) : undefined;
}

export interface Progress {
  /** this section's place among the sections counted */
  n: number;
  /** the sections shown before this one, this one, and those after it the conditions can still show */
  total: number;
  /** share of the counted sections done before this one, 0..100: never less on the next step */
  percent: number;
}

/**
 * The progress of the section at `sectionIndex`. Sections after it are counted while their condition
 * can still hold (it looks at questions not yet answered), so moving on only ever removes sections
 * from the count: the bar never goes backwards, and "Step n of m" never grows its m.
 */
export function progress(content: ResolvedForm, answers: Answers, sectionIndex: number): Progress {
  const decided = new Set(content.sections.slice(0, sectionIndex).flatMap((section) => section.questions.map((q) => q.id)));
  const known = Object.fromEntries(Object.entries(dropHidden(content, answers)).filter(([id]) => decided.has(id)));
  const counted = content.sections.map((section, index) => mayHold(section.visibleIf, known, decided) !== false || index === sectionIndex);
  const before = counted.slice(0, sectionIndex).filter(Boolean).length;
  const total = counted.filter(Boolean).length;
  return { n: before + 1, total, percent: Math.floor((100 * before) / total) };
}

const questionOf = (path: string) => /^answers\.([^.[]+)/.exec(path)?.[1];

export function step(input: StepInput): FlowOutcome {
  const { content, sectionIndex } = input;
  const section = content.sections[sectionIndex];
  const ids = new Set(section.questions.map((q) => q.id));
  const kept = Object.fromEntries(Object.entries(input.previous).filter(([id]) => !ids.has(id)));
  const answers = dropHidden(content, { ...kept, ...input.posted });
  const visible = visibleQuestionIds(content, answers);
  // an answer that does not fit its question is left out of the draft (going back never blocks)
  const invalid = new Set(validateAnswers(content, answers, { partial: true }).map((e) => questionOf(e.path)));
  const fitting = Object.fromEntries(Object.entries(answers).filter(([id]) => !invalid.has(id)));
  if (input.action === 'back') {
    const before = visibleSections(content, fitting).filter((index) => index < sectionIndex);
    return { kind: 'step', answers: fitting, sectionIndex: before.at(-1) ?? sectionIndex };
  }
  const seen = (id: string | undefined) => id !== undefined && ids.has(id) && input.shown.has(id) && visible.has(id);
  const errors = [...input.readErrors, ...validateAnswers(content, answers)].filter((e) => seen(questionOf(e.path)));
  if (errors.length > 0) return { kind: 'errors', answers, fitting, sectionIndex, errors };
  if (section.questions.some((q) => visible.has(q.id) && !input.shown.has(q.id))) return { kind: 'step', answers, sectionIndex };
  const next = visibleSections(content, answers).find((index) => index > sectionIndex);
  return next === undefined ? { kind: 'submit', answers } : { kind: 'step', answers, sectionIndex: next };
}
