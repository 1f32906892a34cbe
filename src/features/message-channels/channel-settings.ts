import { sql } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';

import type { WhatsappProvider } from './vocabulary.js';
export { WHATSAPP_PROVIDERS, type WhatsappProvider } from './vocabulary.js';

/** The non-secret part of a company's WhatsApp channel. */
export interface WhatsappSettings {
  /** cloud-api: the sending phone number's id in the Graph API. */
  phoneNumberId?: string;
  /** gateway: where the plain-text message is POSTed. */
  url?: string;
  /** gateway: the message text (a template with the invite variables). */
  text?: string;
  /** cloud-api: the approved template names a send may use. */
  templates?: string[];
}

export interface WhatsappChannel {
  provider: WhatsappProvider;
  settings: WhatsappSettings;
  credentialsSealed: Buffer;
}

export const DEFAULT_GATEWAY_TEXT = '{{formName}}: {{url}}';

/** What may leave the service about a channel: its settings and that a token is set, never the token. */
export interface WhatsappChannelView {
  provider: WhatsappProvider;
  settings: WhatsappSettings;
  tokenSet: true;
}

export function whatsappChannelView(channel: WhatsappChannel): WhatsappChannelView {
  return { provider: channel.provider, settings: channel.settings, tokenSet: true };
}

/** `lock`: FOR UPDATE, for a caller replacing the channel in its transaction. */
export async function findWhatsappChannel(db: DbOrTx, _deps: NoDeps, input: { companyId: string; lock?: boolean }): Promise<WhatsappChannel | null> {
  const { companyId } = input;
  const { rows } = await db.execute<{ provider: WhatsappProvider; settings: WhatsappSettings; credentials_sealed: Buffer }>(
    sql`SELECT provider, settings, credentials_sealed FROM messaging_channels WHERE company_id = ${companyId} AND channel = 'whatsapp'${input.lock ? sql` FOR UPDATE` : sql``}`,
  );
  const row = rows[0];
  return row ? { provider: row.provider, settings: row.settings, credentialsSealed: row.credentials_sealed } : null;
}
