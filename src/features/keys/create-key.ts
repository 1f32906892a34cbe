import { Type, type Static } from '@sinclair/typebox';
import type { DbOrTx } from '../../platform/db/database.js';
import { apiKeys } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { SCOPES } from './scopes.js';
import { mintToken } from './token.js';

export const DEFAULT_RATE_LIMIT_PER_MIN = 60;
const MAX_RATE_LIMIT_PER_MIN = 1_000_000;

/** What the CLI (and any route) hands to createKey; checked here so every caller gets the same field errors. */
export const CreateKeyInput = Type.Object(
  {
    companyId: Type.String(),
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', errorCode: 'required', errorMessage: 'must not be blank' }),
    scopes: Type.Array(Type.Union(SCOPES.map((scope) => Type.Literal(scope))), { maxItems: 100 }),
    rateLimitPerMin: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RATE_LIMIT_PER_MIN })),
    expiresAt: Type.Optional(Type.Union([Type.Date(), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateKeyInput = Static<typeof CreateKeyInput>;

function checkKeyInput(input: CreateKeyInput, now: Date): FieldError[] {
  const fields = schemaErrors(CreateKeyInput, input);
  if (input.expiresAt instanceof Date && input.expiresAt <= now) {
    fields.push(fieldError('expiresAt', 'invalid_value', 'expiresAt must be in the future.'));
  }
  return fields;
}

/** Creates a key and returns its token, which is shown once: only the secret's hash is stored. */
export async function createKey(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: CreateKeyInput) {
  const now = deps.clock.now();
  const fields = checkKeyInput(input, now);
  if (fields.length) throw validationError(fields);
  const minted = mintToken();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: deps.newId(),
      companyId: input.companyId,
      keyId: minted.keyId,
      secretHash: minted.secretHash,
      name: input.name.trim(),
      scopes: [...new Set(input.scopes)],
      rateLimitPerMin: input.rateLimitPerMin ?? DEFAULT_RATE_LIMIT_PER_MIN,
      expiresAt: input.expiresAt ?? null,
      createdAt: now,
    })
    .returning();
  return { key: publicKey(row), token: minted.token };
}

/** The key as operators see it: never the secret or its hash. */
export function publicKey(row: typeof apiKeys.$inferSelect) {
  return {
    id: row.id,
    /** the id inside the token (qk_<tokenId>_...): what a person holding a leaked token can name */
    tokenId: row.keyId,
    name: row.name,
    scopes: row.scopes,
    rateLimitPerMin: row.rateLimitPerMin,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
