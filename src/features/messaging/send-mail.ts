import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import type { Mailer, OutgoingMail } from '../../lib/providers.js';
import { devMailbox } from './dev-mailbox.js';
import { smtpMailer } from './smtp-mailer.js';

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
  const own = deps.mailer ? null : deps.config.smtpUrl ? smtpMailer(deps.config.smtpUrl, { maxConnections: 1 }) : devMailbox(db, deps);
  try {
    return await (deps.mailer ?? own!).send({ ...mail, from: deps.config.mailFrom });
  } finally {
    await own?.close();
  }
}
