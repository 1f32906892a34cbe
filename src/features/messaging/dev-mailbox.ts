import { sql } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { Mailer } from '../../lib/providers.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

/** Without SMTP_URL, e-mail is kept in the database (dev_mail) instead of leaving: nothing is lost in development. */
export function devMailbox(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }): Mailer {
  return {
    async send(mail) {
      const id = deps.newId();
      const messageId = mail.messageId ?? `<${id}@dev-mailbox.quorum>`;
      await db.execute(sql`
        INSERT INTO dev_mail (id, message_id, sender, recipient, subject, text_body, html_body, headers, created_at)
        VALUES (${id}, ${messageId}, ${mail.from}, ${mail.to}, ${mail.subject}, ${mail.text}, ${mail.html}, ${JSON.stringify({ ...(mail.replyTo ? { 'Reply-To': mail.replyTo } : {}), ...mail.headers })}::jsonb, ${deps.clock.now()})`);
      return { messageId };
    },
    async close() {},
  };
}

export type DevMail = {
  id: string;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  createdAt: string;
};

const COLUMNS = sql`id, message_id AS "messageId", sender AS "from", recipient AS "to", subject, text_body AS text, html_body AS html, headers,
  ${isoTimestamp(sql`created_at`)} AS "createdAt"`;

export async function listDevMail(db: DbOrTx, _deps: NoDeps, input: { limit?: number } = {}): Promise<DevMail[]> {
  const { limit = 50 } = input;
  const { rows } = await db.execute<DevMail>(sql`SELECT ${COLUMNS} FROM dev_mail ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
  return rows;
}

export async function findDevMail(db: DbOrTx, _deps: NoDeps, input: { id: string }): Promise<DevMail | null> {
  const { id } = input;
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const { rows } = await db.execute<DevMail>(sql`SELECT ${COLUMNS} FROM dev_mail WHERE id = ${id}`);
  return rows[0] ?? null;
}
