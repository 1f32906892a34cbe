import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Config } from '../../platform/config.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { findForm, formIsClosed, type FormRecord } from './find-form.js';
import { definitionOf } from './store-form-definition.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

/** The form as the builder edits it: its list row, its definition file (ids included) and its public link. */
export async function formDetail(db: DbOrTx, deps: { config: Pick<Config, 'publicFormUrl'>; clock: Clock }, input: { companyId: string; id: string } | { companyId: string; form: FormRecord }) {
  const { companyId } = input;
  const form = 'form' in input ? input.form : await findForm(db, {}, { companyId, id: input.id });
  if (!form) throw notFound('Form');
  const { rows } = await db.execute<{ slug: string; last: string | null }>(sql`
    SELECT c.slug, (SELECT ${isoTimestamp(sql`max(r.created_at)`)} FROM responses r WHERE r.company_id = ${companyId} AND r.form_id = ${form.id}) AS last
    FROM companies c WHERE c.id = ${companyId}`);
  const origin = new URL(deps.config.publicFormUrl).origin;
  return {
    form: {
      id: form.id, name: form.name, slug: form.slug, isPublic: form.isPublic, isClosed: formIsClosed(form, deps.clock.now()), requiresInvite: form.requiresInvite,
      questionCount: form.questionCount, responseCount: form.responseCount, lastResponseAt: rows[0].last,
      createdAt: form.createdAt.toISOString(), updatedAt: form.updatedAt.toISOString(),
    },
    definition: definitionOf(form),
    publicUrl: `${origin}/f/${encodeURIComponent(rows[0].slug)}/${form.slug}`,
  };
}
