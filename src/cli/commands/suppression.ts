import type { Command } from 'commander';
import type { Suppression } from '../../features/suppression/suppressions.js';
import { SUPPRESSION_REASONS, type SuppressionReason } from '../../features/suppression/reasons.js';
import { CliError } from '../output.js';
import { companyIdForSlug, runCommand } from '../runtime.js';

const suppressions = () => import('../../features/suppression/suppressions.js');

export function registerSuppressionCommands(program: Command): void {
  const group = program.command('suppression').description("a company's suppression list (never sent to: bounced, complained, unsubscribed, manual)");
  group
    .command('add')
    .description('suppress an e-mail address or phone number: no message is sent to it')
    .requiredOption('--company <slug>', 'company slug')
    .option('--email <email>', 'e-mail address')
    .option('--phone <phone>', "phone (E.164, or national in the company's default country)")
    .option('--reason <reason>', SUPPRESSION_REASONS.join(' | '), 'manual')
    .action(
      runCommand(async (rt, { opts }) => {
        if (!SUPPRESSION_REASONS.includes(opts.reason)) throw new CliError(`--reason must be one of ${SUPPRESSION_REASONS.join(', ')}`);
        const companyId = await companyIdForSlug(rt, opts.company);
        return (await suppressions()).addSuppression(rt.ctx.db, rt.ctx, { companyId, email: opts.email, phone: opts.phone, reason: opts.reason as SuppressionReason });
      }, (r) => (r.added ? `suppressed ${r.address} (${r.reason})` : `${r.address} was already suppressed (its first reason stays)`)),
    );
  group
    .command('list')
    .description('list suppressed addresses with their reason, newest first')
    .requiredOption('--company <slug>', 'company slug')
    .option('--search <text>', 'only addresses containing this text')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const page = await (await suppressions()).listSuppressions(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), search: opts.search });
          return page.items;
        },
        (rows: Suppression[]) => (rows.length === 0 ? 'no suppressed addresses' : rows.map((r) => `${r.address}\t${r.reason}\t${r.createdAt}`).join('\n')),
      ),
    );
  group
    .command('remove')
    .description('take an address off the suppression list')
    .requiredOption('--company <slug>', 'company slug')
    .option('--email <email>', 'e-mail address')
    .option('--phone <phone>', 'phone')
    .action(
      runCommand(async (rt, { opts }) => {
        const companyId = await companyIdForSlug(rt, opts.company);
        const { contactAddress, unsuppress } = await suppressions();
        const address = await contactAddress(rt.ctx.db, rt.ctx, { companyId, email: opts.email, phone: opts.phone });
        if (!(await unsuppress(rt.ctx.db, rt.ctx, { companyId, address }))) throw new CliError(`${address} is not on the suppression list`);
        return { address, removed: true };
      }, (r) => `removed ${r.address}`),
    );
}
