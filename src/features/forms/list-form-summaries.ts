import { and, desc, eq, ilike, not, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { offsetOf, type OffsetRequest } from '../../lib/pagination.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';
import { closedSql } from './find-form.js';

export type FormStatusFilter = 'open' | 'closed';

/** `text` as a literal ILIKE pattern (its %, _ and \ matched as themselves), anywhere in the value. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The panel's forms list: the company's forms newest first, filtered by a search over name and
 * slug and by open or closed, each with its response count and its last response (one index
 * probe per listed form on responses_scan_idx).
 */
export async function listFormSummaries(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; search?: string; status?: FormStatusFilter } & OffsetRequest) {
  const { companyId, search, status } = input;
  const closed = closedSql(deps.clock.now());
  const filters: (SQL | undefined)[] = [eq(forms.companyId, companyId)];
  if (search?.trim()) filters.push(or(ilike(forms.name, containing(search.trim())), ilike(forms.slug, containing(search.trim()))));
  if (status) filters.push(status === 'closed' ? closed : not(closed));
  const rows = await db
    .select({
      id: forms.id,
      name: forms.name,
      slug: forms.slug,
      isPublic: forms.isPublic,
      isClosed: closed,
      requiresInvite: forms.requiresInvite,
      questionCount: forms.questionCount,
      responseCount: forms.responseCount,
      lastResponseAt: sql<string | null>`(SELECT ${isoTimestamp(sql`max(r.created_at)`)} FROM responses r WHERE r.company_id = forms.company_id AND r.form_id = forms.id)`,
      createdAt: forms.createdAt,
      updatedAt: forms.updatedAt,
      total: sql<number>`count(*) OVER ()`.mapWith(Number),
    })
    .from(forms)
    .where(and(...filters))
    .orderBy(desc(forms.createdAt), desc(forms.id))
    .limit(input.limit)
    .offset(offsetOf(input));
  const total = rows[0]?.total ?? (offsetOf(input) === 0 ? 0 : await countAll(db, and(...filters)));
  return {
    items: rows.map(({ total: _total, createdAt, updatedAt, ...item }) => ({ ...item, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() })),
    total,
  };
}

async function countAll(db: DbOrTx, where: SQL | undefined): Promise<number> {
  const [{ total }] = await db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(forms).where(where);
  return total;
}

export type FormSummary = Awaited<ReturnType<typeof listFormSummaries>>['items'][number];
