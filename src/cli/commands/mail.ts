import type { Command } from 'commander';
import type { DevMail } from '../../features/messaging/dev-mailbox.js';
import { CliError, table } from '../output.js';
import { runCommand } from '../runtime.js';

export function registerMailCommands(program: Command): void {
  const group = program.command('mail').description('the development mailbox (e-mail kept in the database when SMTP_URL is unset)');
  group
    .command('list')
    .description('the newest messages: id, date, recipient, subject')
    .option('--limit <n>', 'newest n messages', '20')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const { listDevMail } = await import('../../features/messaging/dev-mailbox.js');
          return listDevMail(rt.ctx.db, rt.ctx, { limit: Math.min(Math.max(Number.parseInt(opts.limit, 10) || 20, 1), 500) });
        },
        (rows: DevMail[]) => (rows.length === 0 ? 'the mailbox is empty' : table(rows, ['id', 'createdAt', 'to', 'subject'])),
      ),
    );
  group
    .command('show <id>')
    .description('one message: headers and the plain-text part')
    .action(
      runCommand(async (rt, { args }) => {
        const { findDevMail } = await import('../../features/messaging/dev-mailbox.js');
        const mail = await findDevMail(rt.ctx.db, rt.ctx, { id: args[0] });
        if (!mail) throw new CliError(`no message ${args[0]} (see: quorum mail list)`, 'NOT_FOUND');
        return mail;
      }, (m: DevMail) => [`From: ${m.from}`, `To: ${m.to}`, `Subject: ${m.subject}`, `Date: ${m.createdAt}`, ...Object.entries(m.headers).map(([k, v]) => `${k}: ${v}`), '', m.text].join('\n')),
    );
}
