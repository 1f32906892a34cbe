import type { Command } from 'commander';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';

/** Deletes one response of the company; the statistics of its day are recomputed in the same transaction. */
export async function deleteResponseCommand(rt: CliRuntime, { args, opts }: CommandInput) {
  const companyId = await companyIdForSlug(rt, opts.company);
  const { deleteResponse } = await import('../../features/statistics/delete-response.js');
  const [responseId] = args;
  await rt.ctx.db.transaction((tx) => deleteResponse(tx, rt.ctx, { companyId, responseId }));
  return { id: responseId, deleted: true };
}

export function registerResponseCommands(program: Command): void {
  program
    .command('response')
    .description("a company's responses (the API reads them; deleting one is an operator's act)")
    .command('delete')
    .description('delete one response; its day’s statistics are recomputed in the same transaction')
    .argument('<id>', 'response id')
    .requiredOption('--company <slug>', 'company slug')
    .action(runCommand(deleteResponseCommand, (r: { id: string }) => `deleted response ${r.id}`));
}
