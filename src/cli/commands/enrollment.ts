import { Option, type Command } from 'commander';
import { ENROLLMENT_STATUSES } from '../../features/rosters/vocabulary.js';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';

export async function enrollmentSetStatus(rt: CliRuntime, { opts }: CommandInput) {
  const { setEnrollmentStatus } = await import('../../features/rosters/set-enrollment-status.js');
  const companyId = await companyIdForSlug(rt, opts.company);
  return setEnrollmentStatus(rt.ctx.db, rt.ctx, { companyId, externalId: opts.person, classCode: opts.class, status: opts.status });
}

export const describeSetStatus = ({ change, events }: Awaited<ReturnType<typeof enrollmentSetStatus>>) =>
  change
    ? `${change.externalId} in ${change.classCode}: ${change.fromStatus ?? '(new)'} → ${change.toStatus}${events ? ` (${events} enrollment.dropped event)` : ''}`
    : 'unchanged: the enrollment already has this status';

export function registerEnrollmentCommands(program: Command): void {
  const enrollment = program.command('enrollment').description('enrollments of the class rosters');
  enrollment
    .command('set-status')
    .description("change one enrollment's status (emits enrollment.dropped on an actual change to dropped)")
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--person <externalId>', "the person's externalId")
    .requiredOption('--class <code>', 'the class code')
    .addOption(new Option('--status <status>', 'the new status').choices(ENROLLMENT_STATUSES).makeOptionMandatory())
    .action(runCommand(enrollmentSetStatus, describeSetStatus));
}
