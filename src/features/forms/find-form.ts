import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import { isUuid } from '../../lib/ids.js';
import type { FormSettings } from './definition/index.js';

/** A stored form: `content` is the resolved form (ids everywhere), `dims` its declared dims. */
export type FormRecord = typeof forms.$inferSelect;

async function findOne(db: DbOrTx, where: SQL | undefined): Promise<FormRecord | null> {
  const [row] = await db.select().from(forms).where(where).limit(1);
  return row ?? null;
}

/** The company's form with this id, or null; a non-UUID id matches nothing. */
export function findForm(db: DbOrTx, _deps: NoDeps, input: { companyId: string; id: string }): Promise<FormRecord | null> {
  const { companyId, id } = input;
  if (!isUuid(id)) return Promise.resolve(null);
  return findOne(db, and(eq(forms.companyId, companyId), eq(forms.id, id)));
}

export function findFormBySlug(db: DbOrTx, _deps: NoDeps, input: { companyId: string; slug: string }): Promise<FormRecord | null> {
  const { companyId, slug } = input;
  return findOne(db, and(eq(forms.companyId, companyId), eq(forms.slug, slug)));
}

/** For operators, who may name a form either way; an id wins over a slug spelled like an id. */
export async function findFormByIdOrSlug(db: DbOrTx, deps: NoDeps, input: { companyId: string; idOrSlug: string }): Promise<FormRecord | null> {
  const { companyId, idOrSlug } = input;
  return (await findForm(db, deps, { companyId, id: idOrSlug })) ?? findFormBySlug(db, deps, { companyId, slug: idOrSlug });
}

/** The settings of a form, which are columns of the record. */
export function formSettings(form: FormRecord): FormSettings {
  const flags: FormSettings = { isPublic: form.isPublic, isClosed: form.isClosed, requiresInvite: form.requiresInvite, anonymous: form.anonymous };
  if (form.language !== null) flags.language = form.language;
  if (form.closesAt !== null) flags.closesAt = form.closesAt.toISOString();
  return flags;
}

/** Whether the form takes no answers at `now`: closed by hand, or its closing date has come. */
export function formIsClosed(form: Pick<FormRecord, 'isClosed' | 'closesAt'>, now: Date): boolean {
  return form.isClosed || (form.closesAt !== null && form.closesAt.getTime() <= now.getTime());
}

/** formIsClosed in SQL, for lists that show or filter by it. */
export function closedSql(now: Date): SQL<boolean> {
  return sql<boolean>`(${forms.isClosed} OR coalesce(${forms.closesAt} <= ${now}, false))`;
}
