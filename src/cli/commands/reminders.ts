import { Option, type Command } from 'commander';
import type { ScheduleView } from '../../features/reminders/show-schedule.js';
import { REMINDER_CHANNELS, type ReminderChannel } from '../../features/reminders/schedule-input.js';
import { readJsonFile, wholeNumberArgument } from '../input.js';
import { table } from '../output.js';
import { companyIdForSlug, formOfCompany, runCommand, type CliRuntime } from '../runtime.js';

const reminders = () => import('../../features/reminders/index.js');

/** The company's id and its form's, from --company and --form. */
async function formOf(rt: CliRuntime, opts: { company: string; form: string }) {
  const companyId = await companyIdForSlug(rt, opts.company);
  const form = await formOfCompany(rt, { companyId, companySlug: opts.company, idOrSlug: opts.form });
  return { companyId, formId: form.id };
}

const channelOption = () => new Option('--channel <channel>', 'the channel reminders go by').choices(REMINDER_CHANNELS).default('email');

const describeSchedules = (rows: ScheduleView[]) =>
  rows.length === 0
    ? 'no reminder schedule'
    : table(
        rows.map((s) => ({ ...s, finalDaysBefore: s.finalDaysBefore ?? '-', nextRunAt: s.nextRunAt ?? '-' })),
        ['channel', 'afterDays', 'maxReminders', 'localHour', 'finalDaysBefore', 'timeZone', 'pending', 'nextRunAt'],
      );

export function registerReminderCommands(program: Command): void {
  const group = program
    .command('reminders')
    .description("reminder schedules: remind invitees who have not responded N days after the first send, at most K times, at a local hour on working days, plus a final reminder before expiresAt");
  group
    .command('set')
    .description("set (or replace) a form's schedule on a channel")
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <id|slug>', 'the form')
    .addOption(channelOption())
    .requiredOption('--after-days <n>', 'days after the first send, and between reminders (1-90)', wholeNumberArgument)
    .requiredOption('--max <k>', 'at most this many reminders (0-10)', wholeNumberArgument)
    .requiredOption('--hour <h>', "local hour in the company's time zone (0-23)", wholeNumberArgument)
    .option('--final-days-before <d>', "a final reminder d days before the invite's expiresAt (1-30)", wholeNumberArgument)
    .option('--template <file>', 'WhatsApp cloud-API template of the reminders (JSON: { name, language, variables })')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const { companyId, formId } = await formOf(rt, opts as { company: string; form: string });
          const { setReminderSchedule, showReminderSchedules } = await reminders();
          await setReminderSchedule(rt.ctx.db, rt.ctx, {
            companyId, formId, channel: opts.channel as ReminderChannel, afterDays: opts.afterDays, maxReminders: opts.max, localHour: opts.hour,
            finalDaysBefore: opts.finalDaysBefore ?? null, template: opts.template ? (readJsonFile(opts.template) as { name: string; language: string }) : null,
          });
          return showReminderSchedules(rt.ctx.db, rt.ctx, { companyId, formId });
        },
        describeSchedules,
      ),
    );
  group
    .command('show')
    .description("a form's schedules, the invites still to remind and the next run")
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <id|slug>', 'the form')
    .action(
      runCommand(async (rt, { opts }) => (await reminders()).showReminderSchedules(rt.ctx.db, rt.ctx, await formOf(rt, opts as { company: string; form: string })), describeSchedules),
    );
  group
    .command('clear')
    .description("remove a form's schedule on a channel (reminders already queued still leave)")
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <id|slug>', 'the form')
    .addOption(channelOption())
    .action(
      runCommand(
        async (rt, { opts }) => {
          await (await reminders()).clearReminderSchedule(rt.ctx.db, rt.ctx, { ...(await formOf(rt, opts as { company: string; form: string })), channel: opts.channel as ReminderChannel });
          return { cleared: opts.channel as string };
        },
        (r: { cleared: string }) => `cleared the ${r.cleared} reminder schedule`,
      ),
    );
  group
    .command('run')
    .description('run the reminder sweep now (the worker runs it every quarter hour); the worker or quorum start sends the queued reminders')
    .option('--company <slug>', 'only this company')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const companyId = opts.company ? await companyIdForSlug(rt, opts.company) : undefined;
          return { reminded: await (await reminders()).sendReminders(rt.ctx.db, { clock: rt.ctx.clock, newId: rt.ctx.newId, log: (line) => console.error(line) }, { companyId }) };
        },
        (r: { reminded: number }) => `${r.reminded} invite(s) reminded`,
      ),
    );
}
