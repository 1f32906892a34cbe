import { eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies, type CompanySettings } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError, type FieldError } from '../../lib/errors.js';

// No locale: a new company forces no language on its respondents (unset, the pages follow the
// form's language, then the person's Accept-Language; messages the form's, then English).
export const DEFAULT_COMPANY_SETTINGS: Required<Pick<CompanySettings, 'monthlyQuota' | 'anonymityFloor' | 'timeZone' | 'defaultCountry'>> = {
  monthlyQuota: 10_000,
  anonymityFloor: 5,
  timeZone: 'UTC',
  defaultCountry: 'BR',
};

export interface CreateCompanyInput {
  name: string;
  slug: string;
  settings?: CompanySettings;
}

const SLUG_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The display name's rule, shared by creation and renaming; `name` is already trimmed. */
export function companyNameErrors(name: string): FieldError[] {
  if (name.length >= 1 && name.length <= 200) return [];
  return [{ path: 'name', code: name.length < 1 ? 'required' : 'too_long', message: 'must be 1 to 200 characters' }];
}

export async function createCompany(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: CreateCompanyInput) {
  const name = input.name.trim();
  const fields = companyNameErrors(name);
  if (!SLUG_RE.test(input.slug)) fields.push({ path: 'slug', code: 'invalid_format', message: 'must be lower-case letters, digits and dashes' });
  if (fields.length) throw validationError(fields);
  if (await findCompanyBySlug(db, deps, { slug: input.slug })) {
    throw validationError([{ path: 'slug', code: 'not_unique', message: `a company with slug "${input.slug}" exists` }]);
  }
  const now = deps.clock.now();
  const [row] = await db
    .insert(companies)
    .values({
      id: deps.newId(),
      name,
      slug: input.slug,
      settings: { ...DEFAULT_COMPANY_SETTINGS, ...input.settings },
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row;
}

export async function findCompanyBySlug(db: DbOrTx, _deps: NoDeps, input: { slug: string }) {
  const { slug } = input;
  const [row] = await db.select().from(companies).where(eq(companies.slug, slug)).limit(1);
  return row ?? null;
}
