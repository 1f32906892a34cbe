import { Type, type Static } from '@sinclair/typebox';
import type { Config } from '../../platform/config.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { isEventType } from '../events/index.js';
import { targetUrlErrors } from '../../platform/outbound/index.js';
import { secretBox } from '../../lib/secret-box.js';
import { generateWebhookSecret } from '../../lib/webhook-signature.js';
import { webhookSubscriptions } from './table.js';
import { ALL_TYPES } from './vocabulary.js';

export interface SubscriptionDeps {
  clock: Clock;
  newId: IdGenerator;
  config: Pick<Config, 'secretKey' | 'webhookAllowPrivateTargets'>;
}

const MAX_DESCRIPTION = 500;

/** What the CLI (and any route) hands to createSubscription; checked here so every caller gets the same field errors. */
export const CreateSubscriptionInput = Type.Object(
  {
    companyId: Type.String(),
    url: Type.String(),
    /** ["*"] (the default) or catalog event types. */
    types: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 100 })),
    description: Type.Optional(Type.String({ maxLength: MAX_DESCRIPTION })),
  },
  { additionalProperties: false },
);
export type CreateSubscriptionInput = Static<typeof CreateSubscriptionInput>;

function typeErrors(types: string[]): FieldError[] {
  if (types.includes(ALL_TYPES) && types.length > 1) {
    return [fieldError('types', 'invalid_value', '"*" already means every type; do not combine it with others')];
  }
  return types.flatMap((type, i) => (type === ALL_TYPES || isEventType(type) ? [] : [fieldError(`types[${i}]`, 'invalid_value', `"${type}" is not an event type`)]));
}

/** Shape first (TypeBox); the URL and type rules only for fields whose shape is right. Also checks an edited subscription. */
export function checkSubscriptionInput(input: CreateSubscriptionInput, types: string[], allowPrivate: boolean): FieldError[] {
  const structural = schemaErrors(CreateSubscriptionInput, input);
  const malformed = (field: string) => structural.some((error) => error.path === field || error.path.startsWith(`${field}[`));
  return [...(malformed('url') ? [] : targetUrlErrors('url', input.url, allowPrivate)), ...(malformed('types') ? [] : typeErrors(types)), ...structural];
}

/** Creates an enabled subscription; its secret is returned once and afterwards only kept sealed. */
export async function createSubscription(db: DbOrTx, deps: SubscriptionDeps, input: CreateSubscriptionInput) {
  const types = [...new Set(input.types ?? [ALL_TYPES])];
  const fields = checkSubscriptionInput(input, types, deps.config.webhookAllowPrivateTargets);
  if (fields.length) throw validationError(fields);
  const id = deps.newId();
  const secret = generateWebhookSecret();
  const now = deps.clock.now();
  const [row] = await db
    .insert(webhookSubscriptions)
    .values({
      id,
      companyId: input.companyId,
      url: input.url,
      types,
      enabled: true,
      description: input.description ?? '',
      secretSealed: secretBox(deps.config.secretKey).seal(secret, id),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { subscription: publicSubscription(row), secret };
}

/** The subscription as operators see it: never a secret, sealed or not. */
export function publicSubscription(row: typeof webhookSubscriptions.$inferSelect) {
  return {
    id: row.id,
    companyId: row.companyId,
    url: row.url,
    types: row.types,
    enabled: row.enabled,
    description: row.description,
    failingSince: row.failingSince?.toISOString() ?? null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export type PublicSubscription = ReturnType<typeof publicSubscription>;
