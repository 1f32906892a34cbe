import { isDeepStrictEqual } from 'node:util';
import { eq } from 'drizzle-orm';
import { lockForTransaction } from '../../db/advisory-lock.js';
import type { DbOrTx } from '../../db/database.js';
import { forms } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { assignIds, questionCount, validateFormDefinition, type FormDefinition, type ResolvedForm } from './definition/index.js';
import { findFormBySlug } from './find-form.js';

export interface ImportFormResult {
  status: 'created' | 'updated' | 'unchanged';
  id: string;
  slug: string;
  name: string;
  questionCount: number;
}

/** The columns a definition sets; id, company, slug and created_at are set once, on creation. */
function definitionColumns(def: FormDefinition, content: ResolvedForm, now: Date) {
  return {
    name: def.name,
    description: def.description ?? null,
    ...def.settings,
    // explicit null: a file that drops the setting clears it
    language: def.settings.language ?? null,
    content,
    dims: content.dims,
    questionCount: questionCount(content),
    updatedAt: now,
  };
}

/** Whether writing `columns` would change nothing but updated_at (compared as stored: JSON, key order free). */
function sameDefinition(columns: Record<string, unknown>, previous: Record<string, unknown>): boolean {
  const asStored = (value: unknown) => (value === undefined ? null : JSON.parse(JSON.stringify(value)));
  return Object.keys(columns).every((key) => key === 'updatedAt' || isDeepStrictEqual(asStored(columns[key]), asStored(previous[key])));
}

/**
 * Creates the company's form with the file's slug, or updates it. Ids of sections, questions
 * and choices are kept by key across updates (stored answers keep pointing at them), so the
 * previous version is read and replaced in one transaction, one import per slug at a time.
 * Invalid files throw VALIDATION_ERROR with one entry per problem and its JSON path.
 */
export async function importForm(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; rawJson: unknown }): Promise<ImportFormResult> {
  const { companyId, rawJson } = input;
  const validated = validateFormDefinition(rawJson);
  if (!validated.ok) throw validationError(validated.errors, 'The form definition is invalid.');
  const def = validated.value;
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'form-import', `${companyId}/${def.slug}`);
    const previous = await findFormBySlug(tx, deps, { companyId, slug: def.slug });
    const content = assignIds(def, previous?.content ?? null, deps.newId);
    const columns = definitionColumns(def, content, deps.clock.now());
    if (previous && sameDefinition(columns, previous)) {
      return { status: 'unchanged', id: previous.id, slug: previous.slug, name: previous.name, questionCount: previous.questionCount };
    }
    const [row] = previous
      ? await tx.update(forms).set(columns).where(eq(forms.id, previous.id)).returning()
      : await tx
          .insert(forms)
          .values({ id: deps.newId(), companyId, slug: def.slug, responseCount: 0, createdAt: columns.updatedAt, ...columns })
          .returning();
    return { status: previous ? 'updated' : 'created', id: row.id, slug: row.slug, name: row.name, questionCount: row.questionCount };
  });
}
