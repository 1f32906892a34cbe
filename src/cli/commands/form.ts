import { writeFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import type { ImportFormResult } from '../../features/forms/import-form.js';
import { registerFormGoalCommands } from './form-goal.js';
import { readJsonFile } from '../input.js';
import { registerFormFlowCommands } from './form-flow.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';

function parsePositive(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('must be a whole number from 1');
  return Number(value);
}

export async function formImport(rt: CliRuntime, { args, opts }: CommandInput): Promise<ImportFormResult> {
  const definition = readJsonFile(args[0]);
  const { importForm } = await import('../../features/forms/import-form.js');
  return importForm(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), rawJson: definition });
}

/** The definition without the ids of sections, questions and choices: importing it elsewhere makes new ones. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id').map(([key, v]) => [key, withoutIds(v)]));
}

/** The definition itself, or where it was written with --out. */
export async function formExport(rt: CliRuntime, { args, opts }: CommandInput) {
  const { exportForm } = await import('../../features/forms/export-form.js');
  const stored = await exportForm(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), idOrSlug: args[0] });
  const definition = (opts.portable ? withoutIds(stored) : stored) as typeof stored;
  if (!opts.out) return definition;
  writeFileSync(opts.out, `${JSON.stringify(definition, null, 2)}\n`);
  return { slug: definition.slug, file: opts.out };
}

export async function formList(rt: CliRuntime, { opts }: CommandInput) {
  const page = { page: opts.page ?? 1, limit: opts.limit ?? 100 };
  const { listForms } = await import('../../features/forms/list-forms.js');
  const { items, total } = await listForms(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), ...page });
  return { ...page, total, forms: items };
}

export const describeImport = (r: ImportFormResult) => `${r.status} form ${r.slug} (${r.id}) with ${r.questionCount} questions`;

export function registerFormCommands(program: Command): void {
  const form = program.command('form').description('import, export and list forms (the API only reads them)');
  registerFormFlowCommands(form);
  form
    .command('import')
    .description('create or update a form from a definition file (same slug: update, ids kept by key)')
    .requiredOption('--company <slug>', 'company slug')
    .argument('<file>', 'form definition (JSON, see src/features/forms/README.md)')
    .action(runCommand(formImport, describeImport));
  form
    .command('export')
    .description('print (or write) the definition of a stored form, ids included, ready to edit and import again')
    .requiredOption('--company <slug>', 'company slug')
    .argument('<formIdOrSlug>', 'id or slug of the form')
    .option('--out <file>', 'write the definition to this file instead of printing it')
    .option('--portable', 'leave the ids out, to copy the form to another company (ids are made anew there)')
    .action(runCommand(formExport, (r) => (r.file ? `exported form ${r.slug} to ${r.file}` : JSON.stringify(r, null, 2))));
  form
    .command('list')
    .description('list the forms of a company, newest first')
    .requiredOption('--company <slug>', 'company slug')
    .option('--page <n>', 'page number (default 1)', parsePositive)
    .option('--limit <n>', 'forms per page (default 100)', parsePositive)
    .action(
      runCommand(formList, (r) =>
        [
          table(r.forms, ['id', 'slug', 'name', 'questionCount', 'responseCount', 'isPublic', 'isClosed', 'requiresInvite']),
          `page ${r.page}, ${r.total} form(s) in all`,
        ].join('\n'),
      ),
    );
  registerFormGoalCommands(form);
}
