import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies, forms } from '../../platform/db/schema.js';
import { ApiError, notFound } from '../../lib/errors.js';
import { formIsClosed, type FormRecord } from '../forms/index.js';
import type { Clock } from '../../lib/clock.js';
import { formClosed, respondentCompany, type RespondentCompany } from './find-invite.js';
import { publicForm, type PublicForm } from './public-form.js';

export interface PublicFormInput {
  companySlug: string;
  formSlug: string;
}

export interface LoadedPublicForm {
  form: FormRecord;
  publicForm: PublicForm;
  company: RespondentCompany;
}

const SLUG_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * The form of a public link /f/{companySlug}/{formSlug}: form slugs are unique per company only,
 * so the company's slug picks the tenant. Unknown pair: NOT_FOUND (no hint which part); closed:
 * FORM_CLOSED; a form that requires an invite or is not public: INVITE_REQUIRED.
 */
export async function loadPublicForm(db: DbOrTx, deps: { clock: Clock }, input: PublicFormInput): Promise<LoadedPublicForm> {
  if (!SLUG_RE.test(input.companySlug) || !SLUG_RE.test(input.formSlug)) throw notFound('Form');
  const [row] = await db
    .select({ form: forms, company: companies })
    .from(forms)
    .innerJoin(companies, eq(companies.id, forms.companyId))
    .where(and(eq(companies.slug, input.companySlug), eq(forms.slug, input.formSlug)))
    .limit(1);
  if (!row) throw notFound('Form');
  if (formIsClosed(row.form, deps.clock.now())) throw formClosed();
  if (row.form.requiresInvite || !row.form.isPublic) throw new ApiError('INVITE_REQUIRED', 'This form can only be answered through a personal invitation.');
  return { form: row.form, publicForm: publicForm(row.form), company: respondentCompany(row.company) };
}
