import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { forms } from '../forms/index.js';
import { formAlertRules as r } from './table.js';

/** An alert rule as operators see it, with the form it watches and its last crossing. */
export type GoalRule = {
  id: string;
  formId: string;
  formSlug: string;
  goal: number;
  armed: boolean;
  reachedAt: Date | null;
  reachedCount: number | null;
  createdAt: Date;
};

/** The company's rules matching `where`, by form then goal. */
export function findGoalRules(db: DbOrTx, companyId: string, where?: SQL): Promise<GoalRule[]> {
  return db
    .select({ id: r.id, formId: r.formId, formSlug: forms.slug, goal: r.goal, armed: r.armed, reachedAt: r.reachedAt, reachedCount: r.reachedCount, createdAt: r.createdAt })
    .from(r)
    .innerJoin(forms, and(eq(forms.companyId, r.companyId), eq(forms.id, r.formId)))
    .where(and(eq(r.companyId, companyId), where))
    .orderBy(asc(forms.slug), asc(r.goal), asc(r.createdAt), asc(r.id));
}
