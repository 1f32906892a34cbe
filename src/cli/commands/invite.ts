import { createReadStream, statSync } from 'node:fs';
import type { Command } from 'commander';
import type { ImportSummary } from '../../features/invites/import-invites.js';
import { CliError } from '../output.js';
import { companyIdForSlug, runCommand } from '../runtime.js';

const BAR_WIDTH = 30;

/** One redrawn line on stderr: the share of the file's bytes read so far. */
function drawProgress(read: number, size: number, rows: number): void {
  const share = size > 0 ? Math.min(1, read / size) : 1;
  const filled = Math.round(share * BAR_WIDTH);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${rows} rows`);
}

function describeSummary(s: ImportSummary): string {
  const lines = [`batch ${s.batchId}: ${s.rows} rows, ${s.created} created, ${s.duplicates} duplicates, ${s.invalid} invalid`];
  for (const d of s.duplicateRows) lines.push(`  line ${d.line}: duplicate, ${d.email ?? d.phone} already has an invite on this form (left as it is)`);
  for (const r of s.invalidRows) lines.push(...r.errors.map((e) => `  line ${r.line}: ${e.path}: ${e.message}`));
  const unlisted = s.duplicates + s.invalid - s.duplicateRows.length - s.invalidRows.length;
  if (unlisted > 0) lines.push(`  (${unlisted} more not listed; --json gives the counts)`);
  lines.push(`send them: POST /v1/forms/{id}/invites/send {"channel":"email","batchId":"${s.batchId}"}`);
  return lines.join('\n');
}

export function registerInviteCommands(program: Command): void {
  const group = program.command('invite').description('invites of a form');
  group
    .command('import')
    .description('create invites from a CSV file (columns name, email, phone, externalId, expiresAt, dim.<key>), as one batch')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <id-or-slug>', 'the form')
    .argument('<file>', 'CSV file with a header row')
    .action(
      runCommand(async (rt, { args: [file], opts }) => {
        const [{ findFormByIdOrSlug }, { importInvites }] = await Promise.all([
          import('../../features/forms/find-form.js'),
          import('../../features/invites/import-invites.js'),
        ]);
        const companyId = await companyIdForSlug(rt, opts.company);
        const form = await findFormByIdOrSlug(rt.ctx.db, rt.ctx, { companyId, idOrSlug: opts.form });
        if (!form) throw new CliError(`no form "${opts.form}" in company ${opts.company}`, 'NOT_FOUND');
        let size: number;
        try {
          size = statSync(file).size;
        } catch {
          throw new CliError(`cannot read ${file}`);
        }
        const source = createReadStream(file);
        const showProgress = !program.opts().json;
        const summary = await importInvites(rt.ctx.db, rt.ctx, { companyId, form, source, onProgress: ({ rows }) => {
          if (showProgress) drawProgress(source.bytesRead, size, rows);
        } });
        if (showProgress) process.stderr.write('\n');
        return summary;
      }, describeSummary),
    );
}
