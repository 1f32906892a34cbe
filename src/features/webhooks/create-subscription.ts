import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { isEventType } from '../events/catalog.js';
import { secretBox } from './secret-box.js';
import { generateWebhookSecret } from './signature.js';
import { webhookSubscriptions } from './table.js';
import { isIP } from 'node:net';
import { isForbiddenAddress, validateTargetUrl } from './target-guard.js';

export interface SubscriptionDeps {
  clock: Clock;
  newId: IdGenerator;
  config: Pick<Config, 'secretKey' | 'webhookAllowPrivateTargets'>;
}

export interface CreateSubscriptionInput {
  companyId: string;
  url: string;
  /** ["*"] (the default) or catalog event types. */
  types?: string[];
  description?: string;
}

export const ALL_TYPES = '*';
const MAX_DESCRIPTION = 500;

function checkTypes(types: string[]): FieldError[] {
  if (types.length === 0) return [{ path: 'types', code: 'required', message: 'name at least one event type, or "*"' }];
  if (types.includes(ALL_TYPES) && types.length > 1) {
    return [{ path: 'types', code: 'invalid_value', message: '"*" already means every type; do not combine it with others' }];
  }
  return types.flatMap((type, i) =>
    type === ALL_TYPES || isEventType(type) ? [] : [{ path: `types[${i}]`, code: 'unknown_event_type', message: `"${type}" is not an event type` }],
  );
}

/**
 * An IP-literal host is known now, not only at connect time: one in a forbidden range is refused
 * at creation instead of failing every delivery later. Names are still checked when connecting.
 */
function forbiddenLiteral(url: URL, allowPrivate: boolean): FieldError | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (allowPrivate || isIP(host) === 0 || !isForbiddenAddress(host)) return null;
  return { path: 'url', code: 'forbidden_target', message: `${host} is a private, loopback or reserved address; webhooks go to public addresses only.` };
}

function checkSubscriptionInput(input: CreateSubscriptionInput, types: string[], allowPrivate: boolean): FieldError[] {
  const fields = checkTypes(types);
  const url = validateTargetUrl(input.url);
  const refused = url.ok ? forbiddenLiteral(url.url, allowPrivate) : { path: 'url', code: url.code, message: url.message };
  if (refused) fields.unshift(refused);
  if ((input.description ?? '').length > MAX_DESCRIPTION) {
    fields.push({ path: 'description', code: 'invalid_length', message: `must be at most ${MAX_DESCRIPTION} characters` });
  }
  return fields;
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
