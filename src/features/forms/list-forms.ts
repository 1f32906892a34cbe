import { count, desc, eq, sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import { offsetOf, type OffsetRequest } from '../../lib/pagination.js';
import { closedSql } from './find-form.js';


const listColumns = (now: Date) => ({
  id: forms.id,
  name: forms.name,
  slug: forms.slug,
  isPublic: forms.isPublic,
  // closed by hand or past its closing date: what the respondent pages answer (410)
  isClosed: closedSql(now),
  requiresInvite: forms.requiresInvite,
  questionCount: forms.questionCount,
  responseCount: forms.responseCount,
  createdAt: forms.createdAt,
  updatedAt: forms.updatedAt,
});

/**
 * One page of the company's forms, newest first (createdAt desc, id desc), and their total.
 * The total rides on the page's rows (a window count); only an empty page (past the end, or no
 * forms) needs a second query for it.
 */
export async function listForms(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string } & OffsetRequest) {
  const { companyId } = input;
  const rows = await db
    .select({ ...listColumns(deps.clock.now()), total: sql<number>`count(*) OVER ()`.mapWith(Number) })
    .from(forms)
    .where(eq(forms.companyId, companyId))
    .orderBy(desc(forms.createdAt), desc(forms.id))
    .limit(input.limit)
    .offset(offsetOf(input));
  const total = rows.length > 0 ? rows[0].total : await countForms(db, companyId);
  const items = rows.map(({ total: _total, createdAt, updatedAt, ...item }) => ({
    ...item,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  }));
  return { items, total };
}

export type FormListItem = Awaited<ReturnType<typeof listForms>>['items'][number];

async function countForms(db: DbOrTx, companyId: string): Promise<number> {
  const [{ total }] = await db.select({ total: count() }).from(forms).where(eq(forms.companyId, companyId));
  return total;
}
