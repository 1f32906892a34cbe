import { InvalidArgumentError, Option, type Command } from 'commander';
import { EARLY_OUTCOMES } from '../../features/events/families/treatment-vocabulary.js';
import type { CaseRow } from '../../features/treatments/case-event.js';
import type { CaseView } from '../../features/treatments/list-cases.js';
import { TREATMENT_STATUSES } from '../../features/treatments/vocabulary.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';

function pageSize(value: string): number {
  if (!/^[1-9]\d*$/.test(value) || Number(value) > 100) throw new InvalidArgumentError('must be a whole number from 1 to 100');
  return Number(value);
}

export async function treatmentList(rt: CliRuntime, { opts }: CommandInput) {
  const [{ listCases }, { findFormByIdOrSlug }] = await Promise.all([import('../../features/treatments/list-cases.js'), import('../../features/forms/find-form.js')]);
  const companyId = await companyIdForSlug(rt, opts.company);
  const form = opts.form ? await findFormByIdOrSlug(rt.ctx.db, rt.ctx, { companyId, idOrSlug: opts.form }) : null;
  // A form that does not exist lists nothing, as the API's formId filter does.
  const formId = opts.form ? (form?.id ?? '00000000-0000-0000-0000-000000000000') : undefined;
  return listCases(rt.ctx.db, { cursorSecret: rt.ctx.config.secretKey }, { companyId, limit: opts.limit ?? 100, cursor: opts.cursor, status: opts.status, formId });
}

export const listText = (page: Awaited<ReturnType<typeof treatmentList>>) =>
  [
    table(
      page.items.map((c: CaseView) => ({ ...c, step: `${c.stepIndex + 1}/${c.steps.length} ${c.stepName}`, outcome: c.outcome ?? '' })),
      ['number', 'id', 'status', 'step', 'responsible', 'dueAt', 'overdue', 'outcome'],
    ),
    page.total === undefined ? '' : `${page.total} case(s)`,
    page.nextCursor ? `more: --cursor ${page.nextCursor}` : '',
  ].filter(Boolean).join('\n');

export const caseText = (c: CaseRow) =>
  `case #${c.number} (${c.id}): ${c.status}, step ${c.stepIndex + 1}/${c.steps.length} ${c.steps[c.stepIndex].name}` +
  (c.status === 'open' ? `, due ${c.stepDueAt!.toISOString()}` : `, outcome ${c.outcome ?? '(none)'}${c.reason ? ` (${c.reason})` : ''}`);

/** The case's company: --company when given (another company's case is then NOT_FOUND), else the case's own. */
async function caseCompany(rt: CliRuntime, id: string, slug: string | undefined): Promise<string> {
  if (slug) return companyIdForSlug(rt, slug);
  const { companyOfCase } = await import('../../features/treatments/case-company.js');
  return companyOfCase(rt.ctx.db, rt.ctx, { id });
}

export async function treatmentAdvance(rt: CliRuntime, { args, opts }: CommandInput) {
  const { advanceCase } = await import('../../features/treatments/advance-case.js');
  return advanceCase(rt.ctx.db, rt.ctx, { companyId: await caseCompany(rt, args[0], opts.company), id: args[0] });
}

export async function treatmentClose(rt: CliRuntime, { args, opts }: CommandInput) {
  const { closeCase } = await import('../../features/treatments/close-case.js');
  return closeCase(rt.ctx.db, rt.ctx, { companyId: await caseCompany(rt, args[0], opts.company), id: args[0], outcome: opts.outcome, reason: opts.reason });
}

export async function treatmentReopen(rt: CliRuntime, { args, opts }: CommandInput) {
  const { reopenCase } = await import('../../features/treatments/reopen-case.js');
  return reopenCase(rt.ctx.db, rt.ctx, { companyId: await caseCompany(rt, args[0], opts.company), id: args[0] });
}

export function registerTreatmentCommands(program: Command): void {
  const treatment = program.command('treatment').description('follow-up cases opened by responses (flows: quorum form flow)');
  treatment
    .command('list')
    .description('cases of a company, newest first')
    .requiredOption('--company <slug>', 'company slug')
    .addOption(new Option('--status <status>', 'only open or closed cases').choices(TREATMENT_STATUSES))
    .option('--form <idOrSlug>', 'only cases of this form')
    .option('--limit <n>', 'cases per page (default 100)', pageSize)
    .option('--cursor <cursor>', 'the next page, as printed by the previous one')
    .action(runCommand(treatmentList, listText));
  const caseCommand = (name: string, description: string) =>
    treatment.command(name).description(description).argument('<id>', 'case id').option('--company <slug>', 'company slug (checks the case is of this company)');
  caseCommand('advance', 'fulfil the current step; fulfilling the last one closes the case as resolved (treatment.closed)').action(runCommand(treatmentAdvance, caseText));
  caseCommand('close', 'close before the last step, with an outcome and a reason (treatment.closed)')
    .addOption(new Option('--outcome <outcome>', 'why it closes').choices(EARLY_OUTCOMES).makeOptionMandatory())
    .requiredOption('--reason <text>', 'the reason (always needed when closing early)')
    .action(runCommand(treatmentClose, caseText));
  caseCommand('reopen', 'reopen a closed case on the step it closed on (recorded in its history; no event)').action(runCommand(treatmentReopen, caseText));
}
