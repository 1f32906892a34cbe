import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Config } from '../../platform/config.js';
import type { Clock } from '../../lib/clock.js';
import { secretBox } from '../../lib/secret-box.js';
import { generateWebhookSecret } from '../../lib/webhook-signature.js';
import { webhookSubscriptions } from './table.js';
import { updateSubscription } from './update-subscription.js';

/** How long the old secret keeps signing next to the new one, so receivers can switch without a gap. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Replaces the secret; the new one is returned once. Until the overlap ends every delivery carries
 * two signatures (new and old). Rotating again within the overlap drops the oldest secret.
 */
export async function rotateSubscriptionSecret(
  db: DbOrTx,
  deps: { clock: Clock; config: Pick<Config, 'secretKey'> },
  input: { companyId: string; id: string },
) {
  const { companyId, id } = input;
  const now = deps.clock.now();
  const secret = generateWebhookSecret();
  const subscription = await updateSubscription(db, companyId, id, {
    // SET reads the row as it was: the current secret becomes the previous one.
    previousSecretSealed: sql`${webhookSubscriptions.secretSealed}`,
    secretSealed: secretBox(deps.config.secretKey).seal(secret, id),
    previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    updatedAt: now,
  });
  return { subscription, secret };
}
