import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { isUuid } from '../../lib/ids.js';
import { notFound, validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { checkSubscriptionInput, publicSubscription, type SubscriptionDeps } from './create-subscription.js';
import { updateSubscription } from './update-subscription.js';
import { webhookSubscriptions } from './table.js';

export interface EditSubscriptionInput {
  companyId: string;
  id: string;
  url?: string;
  types?: string[];
}

type Target = { url?: string; types?: string[] };

/**
 * Points a subscription at a new URL and/or event types, checked by the rules of creation (the
 * SSRF guard included). Answers the subscription and, field by field, what changed (`from`, `to`):
 * the caller audits it in the same transaction. The secret, state and log are kept.
 */
export async function editSubscription(db: DbOrTx, deps: SubscriptionDeps, input: EditSubscriptionInput) {
  const { companyId, id } = input;
  if (input.url === undefined && input.types === undefined) throw validationError([fieldError('url', 'required', 'give a new url, new types, or both')]);
  if (!isUuid(id)) throw notFound('Webhook subscription');
  return db.transaction(async (tx) => {
    // Locked: two edits at once must each audit the value they replaced.
    const [current] = await tx
      .select()
      .from(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.id, id)))
      .for('update');
    if (!current) throw notFound('Webhook subscription');
    const url = input.url ?? current.url;
    const types = input.types === undefined ? current.types : [...new Set(input.types)];
    const fields = checkSubscriptionInput({ companyId, url, types }, types, deps.config.webhookAllowPrivateTargets);
    if (fields.length) throw validationError(fields);

    const from: Target = {};
    const to: Target = {};
    if (url !== current.url) [from.url, to.url] = [current.url, url];
    if (types.join('\n') !== current.types.join('\n')) [from.types, to.types] = [current.types, types];
    const subscription = Object.keys(to).length ? await updateSubscription(tx, companyId, id, { ...to, updatedAt: deps.clock.now() }) : publicSubscription(current);
    return { subscription, from, to };
  });
}
