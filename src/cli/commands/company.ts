import type { Command } from 'commander';
import { createCompany } from '../../features/companies/create-company.js';
import { listCompanies } from '../../features/companies/list-companies.js';
import { table } from '../output.js';
import { runCommand } from '../runtime.js';

export function registerCompanyCommands(program: Command): void {
  const company = program.command('company').description('manage companies (tenants)');
  company
    .command('create')
    .description('create a company')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--slug <slug>', 'unique slug: lower-case letters, digits and dashes')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const row = await createCompany(rt.ctx.db, rt.ctx, { name: opts.name, slug: opts.slug });
          return { id: row.id, name: row.name, slug: row.slug, settings: row.settings };
        },
        (c) => `created company ${c.slug} (${c.id})`,
      ),
    );
  company
    .command('list')
    .description('list every company with its slug')
    .action(runCommand(async (rt) => listCompanies(rt.ctx.db), (rows) => table(rows, ['slug', 'name', 'id', 'createdAt'])));
}
