import { createReadStream, statSync } from 'node:fs';
import type { Command } from 'commander';
import type { ImportProgress, ImportSummary } from '../../features/invites/import-invites.js';
import { CliError } from '../output.js';
import { companyIdForSlug, formOfCompany, runCommand } from '../runtime.js';
import { IMPORT_EXIT, importExitCode } from '../import-exit.js';

const BAR_WIDTH = 30;

/**
 * The progress bar on stderr. On a terminal one line is redrawn at each whole percent; into a
 * pipe or a log every tenth is its own line, so nothing is left without a newline.
 */
function progressBar(size: number, terminal: boolean) {
  let shown = -1;
  const draw = (share: number, rows: number) => {
    const percent = Math.floor(share * 100);
    const step = terminal ? percent : Math.floor(percent / 10) * 10;
    if (step === shown) return;
    shown = step;
    const filled = Math.round(share * BAR_WIDTH);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(percent).padStart(3)}% ${rows} rows`;
    process.stderr.write(terminal ? `\r${bar}` : `${bar}\n`);
  };
  return {
    update: ({ bytes, rows }: ImportProgress) => draw(size > 0 ? Math.min(1, bytes / size) : 1, rows),
    /** Ends the line the bar was redrawn on (a terminal), so the summary or an error starts on its own. */
    end: () => {
      if (terminal && shown >= 0) process.stderr.write('\n');
    },
  };
}

/** Duplicates and invalid rows, one list in file order. */
function rowLines(s: ImportSummary): string[] {
  const listed = [
    ...s.duplicateRows.map((d) => ({ line: d.line, text: [`  line ${d.line}: duplicate, ${d.email ?? d.phone} already has an invite on this form (left as it is)`] })),
    ...s.invalidRows.map((r) => ({ line: r.line, text: r.errors.map((e) => `  line ${r.line}: ${e.path}: ${e.message}`) })),
  ];
  return listed.sort((a, b) => a.line - b.line).flatMap((row) => row.text);
}

function describeSummary(s: ImportSummary): string {
  const lines = [`batch ${s.batchId}: ${s.rows} rows, ${s.created} created, ${s.duplicates} duplicates, ${s.invalid} invalid`, ...rowLines(s)];
  const unlisted = s.duplicates + s.invalid - s.duplicateRows.length - s.invalidRows.length;
  if (unlisted > 0) lines.push(`  (${unlisted} more not listed; --json gives the counts)`);
  if (s.created > 0) lines.push(`send them: POST /v1/forms/${s.formId}/invites/send {"channel":"email","batchId":"${s.batchId}"}`);
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
    .addHelpText(
      'after',
      `\nExit codes:\n  ${IMPORT_EXIT.ok}  no row invalid (duplicates are left as they are)\n  1  nothing done: unreadable file, unknown company or form, unknown columns\n` +
        `  ${IMPORT_EXIT.someRefused}  some rows invalid (listed), the others imported\n  ${IMPORT_EXIT.allRefused}  every row invalid: nothing imported\n`,
    )
    .action(
      runCommand(async (rt, { args: [file], opts }) => {
        const { importInvites } = await import('../../features/invites/import-invites.js');
        const companyId = await companyIdForSlug(rt, opts.company);
        const form = await formOfCompany(rt, { companyId, companySlug: opts.company, idOrSlug: opts.form });
        let size: number;
        try {
          size = statSync(file).size;
        } catch {
          throw new CliError(`cannot read ${file}`);
        }
        const progress = program.opts().json ? null : progressBar(size, Boolean(process.stderr.isTTY));
        try {
          const summary = await importInvites(rt.ctx.db, rt.ctx, { companyId, form, source: createReadStream(file), onProgress: progress?.update });
          progress?.update({ bytes: size, rows: summary.rows, created: summary.created });
          return summary;
        } finally {
          progress?.end();
        }
      }, describeSummary, { exitCode: (s: ImportSummary) => importExitCode(s.invalid, s.rows) }),
    );
}
