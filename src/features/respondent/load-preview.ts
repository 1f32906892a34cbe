import { eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies } from '../../platform/db/schema.js';
import { notFound } from '../../lib/errors.js';
import { previewForm, type FormRecord } from '../forms/index.js';
import { respondentCompany, type RespondentCompany } from './find-invite.js';

export interface LoadPreviewInput {
  companyId: string;
  /** the form being edited */
  id: string;
  /** the builder's unsaved definition */
  definition: unknown;
}

/** The company's form as the unsaved definition would make it, and the company as its pages show it: nothing written. */
export async function loadPreview(db: DbOrTx, deps: NoDeps, input: LoadPreviewInput): Promise<{ form: FormRecord; company: RespondentCompany }> {
  const form = await previewForm(db, deps, input);
  const [row] = await db.select().from(companies).where(eq(companies.id, input.companyId)).limit(1);
  if (!row) throw notFound('Form');
  return { form, company: respondentCompany(row) };
}
