import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { findFormByIdOrSlug } from '../forms/find-form.js';
import { findGoalRules, type GoalRule } from './goal-rule.js';
import { formAlertRules } from './table.js';

/** The company's rules, of one form (id or slug) or of all its forms, by form then goal. */
export async function listGoalRules(db: DbOrTx, companyId: string, filter: { form?: string } = {}): Promise<GoalRule[]> {
  if (filter.form === undefined) return findGoalRules(db, companyId);
  const form = await findFormByIdOrSlug(db, companyId, filter.form);
  if (!form) throw notFound('Form');
  return findGoalRules(db, companyId, eq(formAlertRules.formId, form.id));
}
