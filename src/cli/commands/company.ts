import { InvalidArgumentError, type Command } from 'commander';
import type { Locale } from '../../features/companies/company-settings.js';
import type { CompanyView } from '../../features/companies/show-company.js';
import type { CountryCode } from 'libphonenumber-js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime } from '../runtime.js';

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
          const { createCompany } = await import('../../features/companies/create-company.js');
          const row = await createCompany(rt.ctx.db, rt.ctx, { name: opts.name, slug: opts.slug });
          return { id: row.id, name: row.name, slug: row.slug, settings: row.settings };
        },
        (c) => `created company ${c.slug} (${c.id})`,
      ),
    );
  company
    .command('list')
    .description('list every company with its slug')
    .action(
      runCommand(
        async (rt) => (await import('../../features/companies/list-companies.js')).listCompanies(rt.ctx.db, rt.ctx),
        (rows) => table(rows, ['slug', 'name', 'id', 'createdAt']),
      ),
    );
  registerCompanySettingsCommands(company);
}

function wholeNumber(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

/** "none" clears the setting; anything else is a country code, checked by the service. */
function holidayCountry(value: string): CountryCode | null {
  return value.toLowerCase() === 'none' ? null : (value.toUpperCase() as CountryCode);
}

/** "none" clears the setting (no company language: the form's, then the respondent's, then English); the service checks the rest. */
function locale(value: string): Locale | null {
  return value.toLowerCase() === 'none' ? null : (value as Locale);
}

const UNSET: Record<string, string> = { holidayCountry: '(none)', locale: '(not set)', brandColor: '(default blue)', logo: '(none)' };

/** `--logo FILE` uploads the file's bytes (the service checks them); `--logo none` removes the logo. */
async function setLogo(ctx: CliRuntime['ctx'], companyId: string, value: string): Promise<void> {
  const { removeCompanyLogo, setCompanyLogo } = await import('../../features/companies/brand.js');
  if (value.toLowerCase() === 'none') {
    await removeCompanyLogo(ctx.db, ctx, { companyId });
    return;
  }
  const { readFile } = await import('node:fs/promises');
  await setCompanyLogo(ctx.db, ctx, { companyId, bytes: await readFile(value) });
}

function showText(view: CompanyView): string {
  const { company, settings, quota } = view;
  return [
    `${company.name} (${company.slug}, ${company.id})`,
    ...Object.entries(settings).map(([key, value]) => `  ${key}: ${value ?? UNSET[key] ?? '(deployment default)'}`),
    `  quota ${quota.period}: ${quota.used} used, ${quota.reserved} reserved of ${quota.limit}`,
  ].join('\n');
}

function registerCompanySettingsCommands(company: Command): void {
  company
    .command('show')
    .description("a company's settings and this month's message quota")
    .requiredOption('--company <slug>', 'company slug')
    .action(
      runCommand(async (rt, { opts }) => {
        const { showCompany } = await import('../../features/companies/show-company.js');
        return showCompany(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company) });
      }, showText),
    );
  company
    .command('set')
    .description("change a company's settings")
    .requiredOption('--company <slug>', 'company slug')
    .option('--name <name>', 'display name')
    .option('--monthly-quota <n>', 'messages per UTC month', wholeNumber)
    .option('--anonymity-floor <n>', 'smallest cut a report on an anonymous form may show', wholeNumber)
    .option('--time-zone <iana>', 'time zone for working days, e.g. America/Sao_Paulo')
    .option('--default-country <cc>', 'country of phone numbers written without +, e.g. BR')
    .option('--holiday-country <cc>', 'country whose public holidays treatment deadlines skip, e.g. BR, or "none" (the default)', holidayCountry)
    .option('--locale <locale>', 'en, pt-BR or es, or "none" (the default: the form\'s language, else the respondent\'s)', locale)
    .option('--mail-from <from>', 'e-mail sender, "Name <address>"')
    .option('--brand-color <hex>', 'accent of the respondent pages and e-mail, #RRGGBB with 4.5:1 contrast on white, or "none"', (value: string) => (value.toLowerCase() === 'none' ? null : value))
    .option('--logo <file>', 'logo shown on the respondent pages and e-mail: a PNG, JPEG or WebP file of at most 100 KB, or "none"')
    .action(
      runCommand(async (rt, { opts }) => {
        const [{ updateCompanySettings }, { showCompany }] = await Promise.all([
          import('../../features/companies/company-settings.js'),
          import('../../features/companies/show-company.js'),
        ]);
        const companyId = await companyIdForSlug(rt, opts.company);
        if (opts.logo !== undefined) await setLogo(rt.ctx, companyId, opts.logo as string);
        await updateCompanySettings(rt.ctx.db, rt.ctx, { companyId, name: opts.name as string | undefined, patch: {
          monthlyQuota: opts.monthlyQuota as number | undefined,
          anonymityFloor: opts.anonymityFloor as number | undefined,
          timeZone: opts.timeZone as string | undefined,
          defaultCountry: (opts.defaultCountry as string | undefined)?.toUpperCase() as CountryCode | undefined,
          holidayCountry: opts.holidayCountry as CountryCode | null | undefined,
          locale: opts.locale as Locale | null | undefined,
          mailFrom: opts.mailFrom as string | undefined,
          brandColor: opts.brandColor as string | null | undefined,
        } });
        return showCompany(rt.ctx.db, rt.ctx, { companyId });
      }, showText),
    );
}
