import { Type, type Static } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { users } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';

export const LANGUAGES = ['en', 'pt-BR', 'es'] as const;

/** A panel language, or null to follow the browser's. */
export const LanguageChoice = Type.Union([...LANGUAGES.map((language) => Type.Literal(language)), Type.Null()]);

export const UpdateProfileInput = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', errorCode: 'required', errorMessage: 'must not be blank' })),
    language: Type.Optional(LanguageChoice),
  },
  { additionalProperties: false },
);
export type UpdateProfileInput = Static<typeof UpdateProfileInput>;

/** Changes the signed-in person's name and panel language (absent fields stay as they are). */
export async function updateProfile(db: DbOrTx, deps: { clock: Clock }, input: UpdateProfileInput & { userId: string }): Promise<void> {
  const { userId, ...change } = input;
  const fields = schemaErrors(UpdateProfileInput, change);
  if (fields.length) throw validationError(fields);
  await db
    .update(users)
    .set({ ...(change.name !== undefined && { name: change.name.trim() }), ...(change.language !== undefined && { language: change.language }), updatedAt: deps.clock.now() })
    .where(eq(users.id, userId));
}
