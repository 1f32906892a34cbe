import type { Command } from 'commander';
import type { Suppression } from '../../features/suppression/suppressions.js';
import { SUPPRESSION_REASONS, type SuppressionReason } from '../../features/suppression/reasons.js';
import { CliError } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime } from '../runtime.js';

async function addressFor(rt: CliRuntime, companyId: string, opts: { email?: string; phone?: string }): Promise<string> {
  if ((opts.email === undefined) === (opts.phone === undefined)) throw new CliError('give exactly one of --email and --phone');
  const [{ readCompanySettings }, { suppressionAddress }] = await Promise.all([
    import('../../features/companies/company-settings.js'),
    import('../../features/suppression/suppressions.js'),
  ]);
  const { defaultCountry } = await readCompanySettings(rt.ctx.db, rt.ctx, { companyId });
  return suppressionAddress(opts, defaultCountry);
}

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
        const address = await addressFor(rt, companyId, opts);
        const { suppress } = await import('../../features/suppression/suppressions.js');
        await suppress(rt.ctx.db, rt.ctx, { companyId, addresses: [address], reason: opts.reason as SuppressionReason });
        return { address, reason: opts.reason };
      }, (r) => `suppressed ${r.address} (${r.reason})`),
    );
  group
    .command('list')
    .description('list suppressed addresses with their reason')
    .requiredOption('--company <slug>', 'company slug')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const { listSuppressions } = await import('../../features/suppression/suppressions.js');
          return listSuppressions(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company) });
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
        const address = await addressFor(rt, companyId, opts);
        const { unsuppress } = await import('../../features/suppression/suppressions.js');
        if (!(await unsuppress(rt.ctx.db, rt.ctx, { companyId, address }))) throw new CliError(`${address} is not on the suppression list`);
        return { address, removed: true };
      }, (r) => `removed ${r.address}`),
    );
}
