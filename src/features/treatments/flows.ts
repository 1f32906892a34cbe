import { and, asc, eq } from 'drizzle-orm';
import { noDeps, type NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { ApiError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { Clock } from '../../lib/clock.js';
import { findFormByIdOrSlug, type FormRecord } from '../forms/index.js';
import { parseFlowFile } from './flow-definition.js';
import { treatmentFlows } from './table.js';

export type FlowRecord = typeof treatmentFlows.$inferSelect;

async function formOf(db: DbOrTx, companyId: string, formIdOrSlug: string): Promise<FormRecord> {
  const form = await findFormByIdOrSlug(db, noDeps, { companyId, idOrSlug: formIdOrSlug });
  if (!form) throw new ApiError('NOT_FOUND', `No form "${formIdOrSlug}" in this company.`);
  return form;
}

/** Adds the flow of the file to the form, or replaces the form's flow with the same key (open cases keep their steps). */
export async function addFlow(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; formIdOrSlug: string; file: unknown }) {
  const { companyId, formIdOrSlug, file } = input;
  const form = await formOf(db, companyId, formIdOrSlug);
  const flow = await parseFlowFile(file, form.content, (idOrSlug) => findFormByIdOrSlug(db, deps, { companyId, idOrSlug }));
  const [row] = await db
    .insert(treatmentFlows)
    .values({ id: deps.newId(), companyId, formId: form.id, key: flow.key, name: flow.name, definition: flow.definition, createdAt: deps.clock.now() })
    .onConflictDoUpdate({ target: [treatmentFlows.companyId, treatmentFlows.formId, treatmentFlows.key], set: { name: flow.name, definition: flow.definition } })
    .returning();
  return row;
}

export async function listFlows(db: DbOrTx, _deps: NoDeps, input: { companyId: string; formIdOrSlug: string }): Promise<FlowRecord[]> {
  const { companyId, formIdOrSlug } = input;
  const form = await formOf(db, companyId, formIdOrSlug);
  return db.select().from(treatmentFlows).where(eq(treatmentFlows.formId, form.id)).orderBy(asc(treatmentFlows.key));
}

/** Removes the flow; its cases stay (they carry their steps) and no new ones open. */
export async function removeFlow(db: DbOrTx, _deps: NoDeps, input: { companyId: string; formIdOrSlug: string; key: string }): Promise<{ key: string }> {
  const { companyId, formIdOrSlug, key } = input;
  const form = await formOf(db, companyId, formIdOrSlug);
  const removed = await db
    .delete(treatmentFlows)
    .where(and(eq(treatmentFlows.formId, form.id), eq(treatmentFlows.key, key)))
    .returning({ key: treatmentFlows.key });
  if (removed.length === 0) throw new ApiError('NOT_FOUND', `The form has no flow "${key}".`);
  return removed[0];
}
