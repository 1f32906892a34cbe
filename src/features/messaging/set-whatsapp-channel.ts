import { sql } from 'drizzle-orm';
import { noDeps, type NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Config } from '../../platform/config.js';
import type { Clock } from '../../lib/clock.js';
import { changedFields, type FieldChange } from '../../lib/changed-fields.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { targetUrlErrors } from '../../platform/outbound/index.js';
import { secretBox } from '../../lib/secret-box.js';
import { findWhatsappChannel, whatsappChannelView, type WhatsappChannel, type WhatsappChannelView, type WhatsappProvider, type WhatsappSettings } from '../message-channels/index.js';

export interface WhatsappChannelInput {
  provider: WhatsappProvider;
  /**
   * cloud-api: the Graph API access token; gateway: the bearer token. Sealed at rest. Omitted:
   * the token already set is kept, which needs a channel of the same provider.
   */
  token?: string;
  settings: WhatsappSettings;
}

/** The channel as set, what changed in its settings, and whether the token was replaced (never its value). */
export interface WhatsappChannelChange {
  channel: WhatsappChannelView;
  changes: Record<string, FieldChange>;
  tokenReplaced: boolean;
}

/** The credentials are bound to the company and channel: a sealed value copied elsewhere does not open. */
export const channelSecretContext = (companyId: string) => `whatsapp:${companyId}`;

/** Bounds of the free-text settings: the jsonb stays small whoever calls (the CLI has no schema). */
const MAX_TOKEN = 4096;
const MAX_TEXT = 1000;
const MAX_TEMPLATES = 50;
/** The messaging app's template names: lower-case letters, digits and underscores. */
const TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/;

function channelErrors(input: WhatsappChannelInput, current: WhatsappChannel | null, allowPrivateTargets: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const { token, settings } = input;
  if (token === undefined ? current?.provider !== input.provider : !token.trim()) {
    errors.push({ path: 'token', code: 'required', message: 'A token is required (the one set is kept only for the same provider).' });
  } else if (token !== undefined && token.length > MAX_TOKEN) {
    errors.push({ path: 'token', code: 'too_long', message: `A token has at most ${MAX_TOKEN} characters.` });
  }
  if (input.provider === 'cloud-api' && !/^\d{1,30}$/.test(settings.phoneNumberId ?? '')) {
    errors.push({ path: 'phoneNumberId', code: 'required', message: 'The cloud API needs the phone number id (digits).' });
  }
  const templates = settings.templates ?? [];
  if (templates.length > MAX_TEMPLATES) errors.push({ path: 'templates', code: 'too_long', message: `At most ${MAX_TEMPLATES} templates.` });
  templates.forEach((name, index) => {
    if (!TEMPLATE_NAME.test(name)) errors.push({ path: `templates[${index}]`, code: 'invalid_format', message: 'A template name has lower-case letters, digits and underscores.' });
  });
  if ((settings.text?.length ?? 0) > MAX_TEXT) errors.push({ path: 'text', code: 'too_long', message: `The message text has at most ${MAX_TEXT} characters.` });
  // The gateway URL is checked as a webhook URL is: the same rules, and the same guard when sending.
  if (input.provider === 'gateway') errors.push(...targetUrlErrors('url', settings.url ?? '', allowPrivateTargets));
  return errors;
}

/** Sets (or replaces) the company's WhatsApp channel; the token is sealed like webhook secrets. */
export async function setWhatsappChannel(
  db: DbOrTx,
  deps: { clock: Clock; config: Pick<Config, 'secretKey' | 'webhookAllowPrivateTargets'> },
  input: { companyId: string } & WhatsappChannelInput,
): Promise<WhatsappChannelChange> {
  const { companyId, provider, settings, token } = input;
  return db.transaction(async (tx) => {
    const current = await findWhatsappChannel(tx, noDeps, { companyId, lock: true });
    const errors = channelErrors(input, current, deps.config.webhookAllowPrivateTargets);
    if (errors.length > 0) throw validationError(errors);
    const sealed = token === undefined ? current!.credentialsSealed : secretBox(deps.config.secretKey).seal(token, channelSecretContext(companyId));
    await tx.execute(sql`
      INSERT INTO messaging_channels (company_id, channel, provider, settings, credentials_sealed, updated_at)
      VALUES (${companyId}, 'whatsapp', ${provider}, ${JSON.stringify(settings)}::jsonb, ${sealed}, ${deps.clock.now()})
      ON CONFLICT (company_id, channel) DO UPDATE
        SET provider = EXCLUDED.provider, settings = EXCLUDED.settings, credentials_sealed = EXCLUDED.credentials_sealed, updated_at = EXCLUDED.updated_at`);
    const channel = whatsappChannelView({ provider, settings, credentialsSealed: sealed });
    const changes = changedFields(current ? { provider: current.provider, ...current.settings } : {}, { provider, ...settings });
    return { channel, changes, tokenReplaced: token !== undefined };
  });
}

export async function removeWhatsappChannel(db: DbOrTx, _deps: NoDeps, input: { companyId: string }): Promise<boolean> {
  const { companyId } = input;
  const { rows } = await db.execute(sql`DELETE FROM messaging_channels WHERE company_id = ${companyId} AND channel = 'whatsapp' RETURNING 1`);
  return rows.length > 0;
}
