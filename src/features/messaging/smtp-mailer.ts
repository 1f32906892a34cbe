import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMail } from '../../lib/providers.js';

export interface SmtpMailerOptions {
  /** Connections kept open to the server; messages are spread over them. */
  maxConnections?: number;
  /** Socket timeouts, so a stalled server fails an attempt instead of holding it forever. */
  timeoutMs?: number;
}

/**
 * Connections the worker keeps to SMTP_URL, and its e-mail slots: one message in flight or being
 * recorded per connection, so a crash re-sends at most this many. 16 meets the ≥ 300 msg/s aim where
 * 8 did not (bench/README.md, invites).
 */
export const SMTP_CONNECTIONS = 16;

/** nodemailer over SMTP_URL with pooled connections: one TLS/AUTH handshake serves many messages. */
export function smtpMailer(smtpUrl: string, options: SmtpMailerOptions = {}): Mailer {
  const timeout = options.timeoutMs ?? 30_000;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: options.maxConnections ?? SMTP_CONNECTIONS,
    maxMessages: Infinity,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  } as nodemailer.TransportOptions);
  return {
    async send(mail: OutgoingMail) {
      const info = await transport.sendMail({ from: mail.from, replyTo: mail.replyTo, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers, messageId: mail.messageId });
      return { messageId: String(info.messageId) };
    },
    async close() {
      transport.close();
    },
  };
}

/**
 * Whether a failed SMTP attempt may succeed later: 4xx replies (greylisting, mailbox busy),
 * connection trouble and timeouts are transient; a 5xx reply is the server's final no.
 */
export function isTransientSmtpError(err: unknown): boolean {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' ? code < 500 : true;
}
