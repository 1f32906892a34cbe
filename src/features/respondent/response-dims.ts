import { noDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { validationError } from '../../lib/errors.js';
import { canonicalDims } from '../dims/index.js';
import type { Answers } from '../forms/index.js';
import { questionsOf } from '../forms/index.js';
import type { FormRecord } from '../forms/index.js';
import type { RecordResponseInput } from '../responses/index.js';
import type { OrgSource } from '../events/index.js';

type Org = NonNullable<RecordResponseInput['org']>;

export interface ResponseDims {
  dims: Record<string, string>;
  org: Org | null;
}

/**
 * Dims with source "answer": the answer of their question (a choice's option key, else the value)
 * made canonical like any caller's value. An answer that names no registered entity leaves the
 * dim unset rather than refusing the respondent's submission; a unit gives the org (orgSource answer).
 */
export async function answerDims(db: DbOrTx, form: FormRecord, answers: Answers): Promise<ResponseDims> {
  const questions = new Map(questionsOf(form.content).map((question) => [question.id, question]));
  const result: ResponseDims = { dims: {}, org: null };
  for (const dim of form.content.dims) {
    if (dim.source !== 'answer' || !dim.questionId || !Object.hasOwn(answers, dim.questionId)) continue;
    const answer = answers[dim.questionId];
    const raw = questions.get(dim.questionId)?.options?.find((option) => option.id === answer)?.key ?? answer;
    const canonical = await canonicalDims(db, noDeps, { companyId: form.companyId, declaredDims: [dim], rawDims: { [dim.key]: raw } });
    if (!canonical.ok) continue;
    Object.assign(result.dims, canonical.dims);
    if (canonical.orgUnit) result.org = { unitId: canonical.orgUnit.id, path: canonical.orgUnit.orgPath, source: 'answer' };
  }
  return result;
}

/** Keeps only the dims the form declares with one of these sources (an invite may carry more). */
export function declaredDims(form: FormRecord, dims: Record<string, string>, source: OrgSource): Record<string, string> {
  const keys = new Set(form.content.dims.filter((dim) => dim.source === source).map((dim) => dim.key));
  return Object.fromEntries(Object.entries(dims).filter(([key]) => keys.has(key)));
}

/** Public-link parameters as canonical dims: only dims with source "link" may be set; a unit gives the org (orgSource link). */
export async function linkDims(db: DbOrTx, form: FormRecord, given: unknown): Promise<ResponseDims> {
  const canonical = await canonicalDims(db, noDeps, { companyId: form.companyId, declaredDims: form.content.dims.filter((dim) => dim.source === 'link'), rawDims: given });
  if (!canonical.ok) throw validationError(canonical.errors, 'The dims are invalid.');
  return { dims: canonical.dims, org: canonical.orgUnit ? { unitId: canonical.orgUnit.id, path: canonical.orgUnit.orgPath, source: 'link' } : null };
}
