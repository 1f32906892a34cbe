/** Outside parties the services talk to, passed in (tests swap them for local servers). */

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Resolves when the server accepted the message; rejects with the server's refusal. */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): Promise<void>;
}
