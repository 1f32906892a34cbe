import type { Command } from 'commander';
import { table } from '../output.js';
import { companyIdForSlug, runCommand } from '../runtime.js';

const holidays = () => import('../../features/treatments/holidays.js');
const moved = (n: number) => (n === 0 ? '' : `; ${n} open step deadline(s) moved`);

export function registerHolidayCommands(program: Command): void {
  const holiday = program.command('holiday').description("a company's own holidays, skipped by treatment deadlines (besides weekends and, when set, the public holidays of its --holiday-country)");
  holiday
    .command('add')
    .description('add (or rename) a holiday; deadlines of open steps move at once')
    .requiredOption('--company <slug>', 'company slug')
    .argument('<day>', 'YYYY-MM-DD')
    .argument('<name>', 'what it is')
    .action(
      runCommand(
        async (rt, { args, opts }) => (await holidays()).addHoliday(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), day: args[0], name: args[1] }),
        (r) => `holiday ${r.day} ${r.name}${moved(r.movedDeadlines)}`,
      ),
    );
  holiday
    .command('list')
    .description("the company's holidays, oldest first")
    .requiredOption('--company <slug>', 'company slug')
    .action(
      runCommand(
        async (rt, { opts }) => (await holidays()).listHolidays(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company) }),
        (rows) => table(rows, ['day', 'name']),
      ),
    );
  holiday
    .command('remove')
    .description('remove a holiday; deadlines of open steps move at once')
    .requiredOption('--company <slug>', 'company slug')
    .argument('<day>', 'YYYY-MM-DD')
    .action(
      runCommand(
        async (rt, { args, opts }) => (await holidays()).removeHoliday(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), day: args[0] }),
        (r) => `removed holiday ${r.day}${moved(r.movedDeadlines)}`,
      ),
    );
}
