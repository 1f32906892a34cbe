import { sql } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../db/database.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { targetUrlErrors } from '../outbound/index.js';
import { secretBox } from '../../lib/secret-box.js';
import type { WhatsappProvider, WhatsappSettings } from './channel-settings.js';

export interface WhatsappChannelInput {
  provider: WhatsappProvider;
  /** cloud-api: the Graph API access token; gateway: the bearer token. Sealed at rest. */
  token: string;
  settings: WhatsappSettings;
}

/** The credentials are bound to the company and channel: a sealed value copied elsewhere does not open. */
export const channelSecretContext = (companyId: string) => `whatsapp:${companyId}`;

function channelErrors(input: WhatsappChannelInput, allowPrivateTargets: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (!input.token.trim()) errors.push({ path: 'token', code: 'required', message: 'A token is required.' });
  if (input.provider === 'cloud-api' && !/^\d{1,30}$/.test(input.settings.phoneNumberId ?? '')) {
    errors.push({ path: 'phoneNumberId', code: 'required', message: 'The cloud API needs the phone number id (digits).' });
  }
  // The gateway URL is checked as a webhook URL is: the same rules, and the same guard when sending.
  if (input.provider === 'gateway') errors.push(...targetUrlErrors('url', input.settings.url ?? '', allowPrivateTargets));
  return errors;
}

/** Sets (or replaces) the company's WhatsApp channel; the token is sealed like webhook secrets. */
export async function setWhatsappChannel(
  db: DbOrTx,
  deps: { clock: Clock; config: Pick<Config, 'secretKey' | 'webhookAllowPrivateTargets'> },
  input: { companyId: string } & WhatsappChannelInput,
): Promise<void> {
  const { companyId } = input;
  const errors = channelErrors(input, deps.config.webhookAllowPrivateTargets);
  if (errors.length > 0) throw validationError(errors);
  const sealed = secretBox(deps.config.secretKey).seal(input.token, channelSecretContext(companyId));
  await db.execute(sql`
    INSERT INTO messaging_channels (company_id, channel, provider, settings, credentials_sealed, updated_at)
    VALUES (${companyId}, 'whatsapp', ${input.provider}, ${JSON.stringify(input.settings)}::jsonb, ${sealed}, ${deps.clock.now()})
    ON CONFLICT (company_id, channel) DO UPDATE
      SET provider = EXCLUDED.provider, settings = EXCLUDED.settings, credentials_sealed = EXCLUDED.credentials_sealed, updated_at = EXCLUDED.updated_at`);
}

export async function removeWhatsappChannel(db: DbOrTx, _deps: NoDeps, input: { companyId: string }): Promise<boolean> {
  const { companyId } = input;
  const { rows } = await db.execute(sql`DELETE FROM messaging_channels WHERE company_id = ${companyId} AND channel = 'whatsapp' RETURNING 1`);
  return rows.length > 0;
}
