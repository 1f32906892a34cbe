import { Option, type Command } from 'commander';
import type { ResponseRates, StageFigures } from '../../features/rates/get-response-rates.js';
import { GROUP_KINDS, type GroupKind } from '../../features/rates/vocabulary.js';
import { companyIdForSlug, formOfCompany, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';

const STAGE_COLUMNS = ['invited', 'sent', 'delivered', 'opened', 'started', 'responded'] as const;
const TITLES: Record<GroupKind, string> = { class: 'class', classGroup: 'class group', course: 'course', teacher: 'teacher', orgUnit: 'org unit (subtree)' };

/** The response rates of a form (the API's shape), with only the groupings named by --by when given. */
export async function ratesCommand(rt: CliRuntime, { opts }: CommandInput): Promise<{ form: string; rates: ResponseRates }> {
  const { getResponseRates } = await import('../../features/rates/get-response-rates.js');
  const companyId = await companyIdForSlug(rt, opts.company);
  const form = await formOfCompany(rt, { companyId, companySlug: opts.company, idOrSlug: opts.form });
  const rates = await getResponseRates(rt.ctx.db, rt.ctx, { companyId, formId: form.id });
  const by = opts.by as GroupKind[] | undefined;
  if (by) for (const kind of GROUP_KINDS) if (!by.includes(kind)) rates.groups[kind] = [];
  return { form: form.slug, rates };
}

const percent = (rate: number | null) => (rate === null ? '-' : `${(rate * 100).toFixed(1)}%`);

/** One table: a row per group with its counts and the response rate. */
function table(rows: { label: string; enrolled: string; figures: StageFigures }[]): string[] {
  const header = ['', 'enrolled', ...STAGE_COLUMNS, 'rate'];
  const cells = rows.map((row) => [row.label, row.enrolled, ...STAGE_COLUMNS.map((stage) => String(row.figures[stage])), percent(row.figures.rates.responded)]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i].length)));
  const line = (values: string[]) => `  ${values.map((value, i) => (i === 0 ? value.padEnd(widths[i]) : value.padStart(widths[i]))).join('  ')}`.trimEnd();
  return [line(header), ...cells.map(line)];
}

export function describeRates({ form, rates }: Awaited<ReturnType<typeof ratesCommand>>): string {
  const lines = [`form ${form}: response rates at ${rates.at}`, ...table([{ label: 'overall', enrolled: '', figures: rates.overall }])];
  for (const kind of GROUP_KINDS) {
    const groups = rates.groups[kind];
    if (groups.length === 0) continue;
    lines.push('', `by ${TITLES[kind]}`, ...table(groups.map((g) => ({ label: `${g.name} (${g.code})`, enrolled: String(g.enrolled), figures: g }))));
  }
  return lines.join('\n');
}

export function registerRatesCommands(program: Command): void {
  program
    .command('rates')
    .description("print a form's response rates: invited, sent, delivered, opened, started, responded, overall and per roster group")
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <idOrSlug>', 'id or slug of the form')
    .addOption(new Option('--by <grouping...>', 'only these groupings (default: all)').choices([...GROUP_KINDS]))
    .action(runCommand(ratesCommand, describeRates));
}
