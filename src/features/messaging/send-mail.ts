import type { Config } from '../../platform/config.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { Mailer, OutgoingMail } from '../../lib/providers.js';
import { devMailbox } from './dev-mailbox.js';

export interface SendMailDeps {
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>;
  mailer: Mailer | null;
  clock: Clock;
  newId: IdGenerator;
}

/**
 * Sends one service e-mail (not a survey message: no queue, no retries) the way the outbound loop
 * does: the context's mailer, else SMTP_URL, else the development mailbox (/dev/mail).
 */
export async function sendMail(db: DbOrTx, deps: SendMailDeps, mail: Omit<OutgoingMail, 'from'>): Promise<{ messageId: string }> {
  // nodemailer loads only when SMTP is used: the CLI and the context stay light (src/cli/start-up.test.ts)
  const own = deps.mailer ? null : deps.config.smtpUrl ? (await import('./smtp-mailer.js')).smtpMailer(deps.config.smtpUrl, { maxConnections: 1 }) : devMailbox(db, deps);
  try {
    return await (deps.mailer ?? own!).send({ ...mail, from: deps.config.mailFrom });
  } finally {
    await own?.close();
  }
}
