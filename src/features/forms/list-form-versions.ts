import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import type { NoDeps } from '../../lib/service.js';
import { findForm } from './find-form.js';
import { formVersions as v } from './versions-table.js';

/** The versions of the company's form, newest first (at most the last 100): who changed what, when. */
export async function listFormVersions(db: DbOrTx, deps: NoDeps, input: { companyId: string; id: string }) {
  const { companyId, id } = input;
  if (!(await findForm(db, deps, { companyId, id }))) throw notFound('Form');
  const rows = await db
    .select({ version: v.version, actorEmail: v.actorEmail, changes: v.changes, createdAt: v.createdAt })
    .from(v)
    .where(and(eq(v.companyId, companyId), eq(v.formId, id)))
    .orderBy(desc(v.version))
    .limit(100);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
