import { isDeepStrictEqual } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { parseInstant } from '../../lib/date-time.js';
import type { IdGenerator } from '../../lib/ids.js';
import { assignIds, exportFormDefinition, questionCount, type FormDefinition, type ResolvedForm } from './definition/index.js';
import { formSettings, type FormRecord } from './find-form.js';
import { describeChanges } from './describe-changes.js';
import { formVersions } from './versions-table.js';

/** Who wrote a definition: a panel user, or null for an operator's CLI import. */
export type FormActor = { userId: string; email: string } | null;

export interface StoredForm {
  status: 'created' | 'updated' | 'unchanged';
  form: FormRecord;
}

/** The columns a definition sets; id, company, slug and created_at are set once, on creation. */
function definitionColumns(def: FormDefinition, content: ResolvedForm, now: Date) {
  return {
    name: def.name,
    description: def.description ?? null,
    ...def.settings,
    // explicit null: a file that drops the setting clears it
    language: def.settings.language ?? null,
    closesAt: def.settings.closesAt === undefined ? null : parseInstant(def.settings.closesAt),
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

/** The authoring file of a stored form (ids included): what a version keeps and the builder edits. */
export function definitionOf(form: FormRecord): FormDefinition {
  return exportFormDefinition(form.content, { slug: form.slug, name: form.name, description: form.description ?? undefined, settings: formSettings(form) });
}

/**
 * Writes a validated definition as the company's form `previous` (or a new form), keeping ids by
 * key, and records the version: who, what changed, the file as it became. The one write path of
 * the CLI import and every panel edit. The caller holds the form's slug lock in `tx`.
 */
export async function storeFormDefinition(
  tx: DbOrTx,
  deps: { clock: Clock; newId: IdGenerator },
  input: { companyId: string; def: FormDefinition; previous: FormRecord | null; actor: FormActor },
): Promise<StoredForm> {
  const { companyId, def, previous, actor } = input;
  const content = assignIds(def, previous?.content ?? null, deps.newId);
  const columns = definitionColumns(def, content, deps.clock.now());
  if (previous && sameDefinition(columns, previous)) return { status: 'unchanged', form: previous };
  const [row] = previous
    ? await tx.update(forms).set(columns).where(eq(forms.id, previous.id)).returning()
    : await tx
        .insert(forms)
        .values({ id: deps.newId(), companyId, slug: def.slug, responseCount: 0, createdAt: columns.updatedAt, ...columns })
        .returning();
  const definition = definitionOf(row);
  await tx.insert(formVersions).values({
    id: deps.newId(),
    companyId,
    formId: row.id,
    version: sql`(SELECT coalesce(max(version), 0) + 1 FROM form_versions WHERE company_id = ${companyId} AND form_id = ${row.id})`,
    actorUserId: actor?.userId ?? null,
    actorEmail: actor?.email ?? null,
    changes: describeChanges(previous ? definitionOf(previous) : null, definition),
    definition,
    createdAt: columns.updatedAt,
  });
  return { status: previous ? 'updated' : 'created', form: row };
}
