/**
 * Conditional visibility (`visibleIf`) over answers keyed by question id. Browser-safe: the
 * server, the respondent page's script and treatment flows' `when` conditions share this one
 * evaluator.
 */
import { parseIsoDateTime } from '../../dims/canonical.js';
import type { Answers, Operand, ResolvedCondition, ResolvedForm, ResolvedLeafCondition } from '../definition/types.js';

/** Answered means a value that says something: not blank text, not an empty list or object. */
export function isAnswered(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/**
 * Evaluates a stored condition (`all` / `any` of leaves on question ids) against answers keyed
 * by question id; a missing condition holds. The answers must already exclude hidden questions
 * (visibleQuestionIds does that).
 */
export function isVisible(condition: ResolvedCondition | undefined, answers: Answers): boolean {
  if (condition === undefined) return true;
  if ('all' in condition) return condition.all.every((c) => isVisible(c, answers));
  if ('any' in condition) return condition.any.some((c) => isVisible(c, answers));
  const value = Object.hasOwn(answers, condition.questionId) ? answers[condition.questionId] : undefined;
  return leafHolds(condition, value);
}

/** Every operator present must hold. notEquals is the exact negation of equals (true when unanswered). */
function leafHolds(leaf: ResolvedLeafCondition, value: unknown): boolean {
  const checks: boolean[] = [];
  if (leaf.equals !== undefined) checks.push(answerMatches(value, leaf.equals));
  if (leaf.notEquals !== undefined) checks.push(!answerMatches(value, leaf.notEquals));
  if (leaf.in !== undefined) checks.push(leaf.in.some((operand) => answerMatches(value, operand)));
  if (leaf.gte !== undefined) checks.push((compareScalars(value, leaf.gte) ?? -1) >= 0);
  if (leaf.lte !== undefined) checks.push((compareScalars(value, leaf.lte) ?? 1) <= 0);
  if (leaf.answered !== undefined) checks.push(isAnswered(value) === leaf.answered);
  return checks.every(Boolean);
}

/** A multiple-choice answer matches when the option is among the chosen ones. */
function answerMatches(value: unknown, operand: Operand): boolean {
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => v === operand || compareScalars(v, operand) === 0);
}

/**
 * Orders two scalar values, or null when they are not comparable. Numbers numerically;
 * timestamps by instant; other strings by code units, which is right for YYYY-MM-DD and HH:MM.
 */
function compareScalars(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  const instantA = parseIsoDateTime(a);
  const instantB = parseIsoDateTime(b);
  if (instantA !== null && instantB !== null) return Math.sign(instantA - instantB);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Ids of the questions shown for these answers, in document order. Walking in order works
 * because conditions only look back; a hidden question's answer is dropped before later
 * conditions see it, so hiding cascades down a chain.
 */
export function visibleQuestionIds(resolved: ResolvedForm, answers: Answers): Set<string> {
  const visible = new Set<string>();
  const shownAnswers: Answers = {};
  for (const section of resolved.sections) {
    if (!isVisible(section.visibleIf, shownAnswers)) continue;
    for (const question of section.questions) {
      if (!isVisible(question.visibleIf, shownAnswers)) continue;
      visible.add(question.id);
      if (Object.hasOwn(answers, question.id)) shownAnswers[question.id] = answers[question.id];
    }
  }
  return visible;
}

/** The answers without those of hidden questions (and of unknown ones): what the page submits. */
export function dropHidden(resolved: ResolvedForm, answers: Answers): Answers {
  const visible = visibleQuestionIds(resolved, answers);
  return Object.fromEntries(Object.entries(answers).filter(([id]) => visible.has(id)));
}
