import type { DbOrTx } from '../../db/database.js';
import { apiKeys } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { isScope } from './scopes.js';
import { mintToken } from './token.js';

export interface CreateKeyInput {
  companyId: string;
  name: string;
  scopes: string[];
  rateLimitPerMin?: number;
  expiresAt?: Date | null;
}

export const DEFAULT_RATE_LIMIT_PER_MIN = 60;
const MAX_RATE_LIMIT_PER_MIN = 1_000_000;

function checkKeyInput(input: CreateKeyInput, now: Date): FieldError[] {
  const fields: FieldError[] = [];
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) fields.push({ path: 'name', code: 'invalid_length', message: 'must be 1 to 200 characters' });
  input.scopes.forEach((scope, i) => {
    if (!isScope(scope)) fields.push({ path: `scopes[${i}]`, code: 'unknown_scope', message: `"${scope}" is not a scope` });
  });
  const rate = input.rateLimitPerMin ?? DEFAULT_RATE_LIMIT_PER_MIN;
  if (!Number.isInteger(rate) || rate < 1 || rate > MAX_RATE_LIMIT_PER_MIN) {
    fields.push({ path: 'rateLimitPerMin', code: 'out_of_range', message: `must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MIN}` });
  }
  if (input.expiresAt && (Number.isNaN(input.expiresAt.getTime()) || input.expiresAt <= now)) {
    fields.push({ path: 'expiresAt', code: 'invalid_value', message: 'must be a valid time in the future' });
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
