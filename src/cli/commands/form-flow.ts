import type { Command } from 'commander';
import { readJsonFile } from '../input.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand } from '../runtime.js';

const flows = () => import('../../features/treatments/flows.js');

/** `quorum form flow add|list|remove`: treatment flows of a form (src/features/treatments/README.md). */
export function registerFormFlowCommands(form: Command): void {
  const flow = form.command('flow').description('treatment flows of a form: a condition on answers opens a follow-up case');
  flow
    .command('add')
    .description('add a flow from a file, or replace the form\'s flow with the same key (open cases keep their steps)')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <idOrSlug>', 'id or slug of the form')
    .argument('<file>', 'flow file (JSON, see src/features/treatments/README.md)')
    .action(
      runCommand(
        async (rt, { args, opts }) => {
          const row = await (await flows()).addFlow(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), formIdOrSlug: opts.form, file: readJsonFile(args[0]) });
          return { id: row.id, key: row.key, name: row.name, steps: row.definition.steps.length };
        },
        (r) => `flow ${r.key} (${r.name}) with ${r.steps} step(s)`,
      ),
    );
  flow
    .command('list')
    .description('the flows of a form')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <idOrSlug>', 'id or slug of the form')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const list = await (await flows()).listFlows(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), formIdOrSlug: opts.form });
          return list.map((f) => ({ id: f.id, key: f.key, name: f.name, steps: f.definition.steps }));
        },
        (rows) => table(rows.map((r: { steps: { name: string }[] }) => ({ ...r, steps: r.steps.map((s) => s.name).join(' → ') })), ['key', 'name', 'steps']),
      ),
    );
  flow
    .command('remove')
    .description('remove a flow: no new cases open from it; its cases stay')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <idOrSlug>', 'id or slug of the form')
    .argument('<key>', 'the flow key')
    .action(
      runCommand(
        async (rt, { args, opts }) =>
          (await flows()).removeFlow(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), formIdOrSlug: opts.form, key: args[0] }),
        (r) => `removed flow ${r.key}`,
      ),
    );
}
