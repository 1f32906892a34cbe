/**
 * The outside services a feature may talk to, as the smallest interfaces it needs. The context
 * holds one of each (or null when not configured); tests put local fakes with real protocols there.
 */
export interface OutgoingMail {
  from: string;
  /** Where answers go when not to From (a company address the deployment may not send as). */
  replyTo?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** The Message-ID header, angle brackets included; the same for every attempt of one message (receivers drop repeats by it). */
  messageId?: string;
}

export interface Mailer {
  /** Resolves when the server accepted the message; rejects with the server's refusal. */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): Promise<void>;
}
