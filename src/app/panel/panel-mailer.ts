import type { AppContext } from '../context.js';
import type { Mailer } from '../../lib/providers.js';
import { devMailbox } from '../../features/messaging/dev-mailbox.js';
import { smtpMailer } from '../../features/messaging/smtp-mailer.js';

/**
 * Where the panel's own e-mail goes (colleague invitations): the context's mailer, else SMTP_URL,
 * else the development mailbox (/dev/mail), as the invite e-mails choose. The panel sends a few
 * messages a day, so an SMTP connection is opened per message and closed after it.
 */
export function panelMailer(ctx: AppContext): Mailer {
  if (ctx.mailer) return ctx.mailer;
  const { smtpUrl } = ctx.config;
  if (!smtpUrl) return devMailbox(ctx.db, ctx);
  return {
    async send(mail) {
      const smtp = smtpMailer(smtpUrl, { maxConnections: 1 });
      try {
        return await smtp.send(mail);
      } finally {
        await smtp.close();
      }
    },
    async close() {},
  };
}
