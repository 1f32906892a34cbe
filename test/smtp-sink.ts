import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

/** A real SMTP server on a local port; `refuse` answers the next DATA commands with these codes. */
export class SmtpSink {
  readonly received: ParsedMail[] = [];
  /** Messages answered with a refusal (the server had the whole message). */
  readonly refused: ParsedMail[] = [];
  refuse: number[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = this.refuse.shift();
        simpleParser(Buffer.concat(chunks)).then((mail) => {
          if (code) {
            this.refused.push(mail);
            return callback(Object.assign(new Error(code < 500 ? 'try again later' : 'no such user'), { responseCode: code }));
          }
          this.received.push(mail);
          callback();
        }, callback);
      });
    },
  });
  url = '';
  constructor() {
    // A sender killed mid-message resets its connection: not the sink's failure (no crash of the test's process).
    this.server.on('error', () => undefined);
  }
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }
  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
