import { eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { findFormByIdOrSlug } from '../forms/index.js';
import { findGoalRules, type GoalRule } from './goal-rule.js';
import { formAlertRules } from './table.js';

/** The company's rules, of one form (id or slug) or of all its forms, by form then goal. */
export async function listGoalRules(db: DbOrTx, deps: NoDeps, input: { companyId: string } & { form?: string }): Promise<GoalRule[]> {
  const { companyId } = input;
  if (input.form === undefined) return findGoalRules(db, companyId);
  const form = await findFormByIdOrSlug(db, deps, { companyId, idOrSlug: input.form });
  if (!form) throw notFound('Form');
  return findGoalRules(db, companyId, eq(formAlertRules.formId, form.id));
}
