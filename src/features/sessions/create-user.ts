import { Type, type Static } from '@sinclair/typebox';
import type { DbOrTx } from '../../platform/db/database.js';
import { users } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from './password.js';

/** An address as people type it: bounded, one @, no spaces; compared without case. */
export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$', description: 'An e-mail address (compared without case)' });
export const Password = Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX });

export const CreateUserInput = Type.Object(
  {
    email: Email,
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', errorCode: 'required', errorMessage: 'must not be blank' }),
    /** Absent: the person sets one through a set-password link. */
    password: Type.Optional(Password),
  },
  { additionalProperties: false },
);
export type CreateUserInput = Static<typeof CreateUserInput>;

/** Creates a panel user; an address already taken (in any case, in any company) is a field error. */
export async function createUser(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: CreateUserInput) {
  const fields = schemaErrors(CreateUserInput, input);
  if (fields.length) throw validationError(fields);
  const now = deps.clock.now();
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const [row] = await db
    .insert(users)
    .values({ id: deps.newId(), email: input.email.trim(), name: input.name.trim(), passwordHash, createdAt: now, updatedAt: now })
    // the one unique key besides the fresh id is lower(email)
    .onConflictDoNothing()
    .returning();
  if (!row) throw validationError([fieldError('email', 'not_unique', 'a user with this e-mail address already exists')]);
  return row;
}
