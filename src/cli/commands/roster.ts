import { statSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { ImportMode, ImportOutcome, ImportRosterInput, RosterCounts } from '../../features/rosters/import-roster.js';
import { readJsonFile } from '../input.js';
import { CliError } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';
import { IMPORT_EXIT, importExitCode } from '../import-exit.js';

const MODES: readonly ImportMode[] = ['upsert', 'sync'];
/** quorum: a JSON file in the API's shape or a folder of Quorum's CSVs; oneroster and canvas: those systems' export folders. */
const FORMATS = ['quorum', 'oneroster', 'canvas'] as const;
type Format = (typeof FORMATS)[number];
const LISTS = ['orgUnits', 'courses', 'teachers', 'people', 'classGroups', 'classes', 'enrollments'] as const;

/** Exit codes of `roster import`: those of every import command. */
export const ROSTER_EXIT = IMPORT_EXIT;

type RosterInput = Omit<ImportRosterInput, 'mode'>;
/** The import's answer (its diff too on a dry run), with what the CLI adds: unrecognised files and row counts. */
type RosterOutput = (ImportOutcome | ImportOutcome['result']) & {
  unrecognisedFiles: string[];
  /** Columns of a OneRoster or Canvas file that the format does not define (`users.csv: shoeSize`). */
  unrecognisedColumns: string[];
  /** Rows of an export read but not imported, and why (`enrollments.csv: 2 row(s) with role aide`). */
  ignoredRows: string[];
  refusedRows: number;
  readRows: number;
};

interface ReadRoster {
  roster: RosterInput;
  unrecognised: string[];
  unrecognisedColumns: string[];
  ignored: string[];
  kind: 'bulk' | 'delta';
}

/** A OneRoster or Canvas export folder (rosters/README.md has the mapping rules). */
async function readExport(rt: CliRuntime, path: string, format: Exclude<Format, 'quorum'>): Promise<ReadRoster> {
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (!isFolder) throw new CliError(`--format ${format} reads a folder of CSV files; ${path} is a file`);
  try {
    const files = (await import('../../features/rosters/roster-export.js')).folderFiles(path);
    const read =
      format === 'oneroster'
        ? (await import('../../features/rosters/read-oneroster-folder.js')).readOneRosterFolder(files, rt.ctx.clock.now().toISOString().slice(0, 10))
        : (await import('../../features/rosters/read-canvas-folder.js')).readCanvasFolder(files);
    return { roster: read.payload as RosterInput, unrecognised: read.unrecognisedFiles, unrecognisedColumns: read.unrecognisedColumns, ignored: read.ignored, kind: read.kind };
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** The roster lists of a JSON file in the API's shape, or of a folder of CSV files (and the folder's other files). */
async function readRoster(path: string): Promise<ReadRoster> {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (isFolder) {
    const { readRosterFolder } = await import('../../features/rosters/read-roster-folder.js');
    try {
      const { payload, unrecognised } = readRosterFolder(path);
      return { roster: payload, unrecognised, unrecognisedColumns: [], ignored: [], kind: 'bulk' };
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  }
  const json = readJsonFile(path) as Partial<ImportRosterInput> | null;
  if (!json || typeof json !== 'object' || !Array.isArray(json.enrollments)) throw new CliError(`${path} must be an object with an enrollments list`);
  return { roster: json as ImportRosterInput, unrecognised: [], unrecognisedColumns: [], ignored: [], kind: 'bulk' };
}

/** Rows of the payload refused (an error names its row as `list[index]`), against rows read. */
function refusedRows(roster: RosterInput, result: ImportOutcome['result']): { refused: number; read: number } {
  const refused = new Set(result.errors.map((e) => e.path.slice(0, e.path.indexOf(']') + 1))).size;
  return { refused, read: LISTS.reduce((sum, list) => sum + (roster[list]?.length ?? 0), 0) };
}

function ratio(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) throw new CliError('--max-drop-ratio must be a number from 0 to 1');
  return parsed;
}

export async function rosterImport(rt: CliRuntime, { args, opts }: CommandInput): Promise<RosterOutput> {
  const companyId = await companyIdForSlug(rt, opts.company);
  const format = (opts.format ?? 'quorum') as Format;
  const { roster, unrecognised, unrecognisedColumns, ignored, kind } = format === 'quorum' ? await readRoster(args[0]) : await readExport(rt, args[0], format);
  // A delta package lists changes only: a sync would drop everyone it leaves out.
  if (kind === 'delta' && opts.mode === 'sync') throw new CliError('the package is a delta (manifest.csv: file.enrollments=delta): import it with --mode upsert; sync needs bulk files');
  const [{ importRoster }, { ApiError }] = await Promise.all([import('../../features/rosters/import-roster.js'), import('../../lib/errors.js')]);
  const rows = LISTS.map((list) => `${roster[list]?.length ?? 0} ${list}`).join(', ');
  for (const name of unrecognised) process.stderr.write(`warning: ignored ${name}: not read by the ${format} import\n`);
  for (const column of unrecognisedColumns) process.stderr.write(`warning: ignored column ${column}: not a column the ${format} format defines\n`);
  process.stderr.write(`read ${args[0]}: ${rows}\n${opts.dryRun ? 'checking (dry run)' : 'importing'} in one transaction… `);
  const started = process.hrtime.bigint();
  try {
    const outcome = await importRoster(rt.ctx.db, rt.ctx, { companyId, ...roster, mode: opts.mode, dryRun: Boolean(opts.dryRun), maxDropRatio: ratio(opts.maxDropRatio) });
    process.stderr.write(`done in ${Number((process.hrtime.bigint() - started) / 1_000_000n)} ms\n`);
    const { refused, read } = refusedRows(roster, outcome.result);
    if (refused > 0) process.stderr.write(`refused ${refused} of ${read} row(s)${refused === read ? ': nothing applied' : ''}\n`);
    return { ...(opts.dryRun ? outcome : outcome.result), unrecognisedFiles: unrecognised, unrecognisedColumns, ignoredRows: ignored, refusedRows: refused, readRows: read };
  } catch (err) {
    process.stderr.write('failed\n');
    if (err instanceof ApiError && err.code === 'DROP_THRESHOLD_EXCEEDED') {
      const classes = (err.details?.classes ?? []) as Array<{ classCode: string; active: number; dropping: number; ratio: number }>;
      const lines = classes.map((c) => `  ${c.classCode}: would drop ${c.dropping} of ${c.active} (${(c.ratio * 100).toFixed(1)}%)`);
      throw new CliError([err.message, ...lines, '  (raise --max-drop-ratio if these drops are intended)'].join('\n'));
    }
    throw err;
  }
}

const counts = (c: RosterCounts) => `people ${c.people}, classes ${c.classes}, class groups ${c.classGroups}, enrollments ${c.enrollments}`;

/** The readable diff of a dry run: one line per change. */
function describeChanges(changes: ImportOutcome['changes']): string[] {
  const sign = { created: '+', updated: '~', dropped: '-' } as const;
  return [
    ...changes.classGroups.map((c) => `${sign[c.action]} class group ${c.key}`),
    ...changes.classes.map((c) => `${sign[c.action]} class ${c.key}`),
    ...changes.people.map((c) => `${sign[c.action]} person ${c.key}`),
    ...changes.enrollments.map((c) => `${sign[c.action]} enrollment ${c.externalId} in ${c.classCode}: ${c.fromStatus ?? '(new)'} → ${c.toStatus}`),
  ];
}

/** 0 when every row was accepted; else ROSTER_EXIT.someRefused, or allRefused when no row was. */
export function rosterExitCode(output: RosterOutput): number {
  return importExitCode(output.refusedRows, output.readRows);
}

export function describeRosterImport(output: RosterOutput): string {
  const result = 'result' in output ? output.result : output;
  const lines = [
    ...(output.unrecognisedFiles.length > 0 ? [`ignored unrecognised file(s): ${output.unrecognisedFiles.join(', ')}`] : []),
    ...(output.unrecognisedColumns.length > 0 ? [`ignored unrecognised column(s): ${output.unrecognisedColumns.join(', ')}`] : []),
    ...output.ignoredRows.map((line) => `not imported: ${line}`),
    ...(result.entities ? [`units, courses and teachers: created ${result.entities.created}, updated ${result.entities.updated}, unchanged ${result.entities.unchanged}`] : []),
    `${result.dryRun ? 'would create' : 'created'}: ${counts(result.created)}`,
    `${result.dryRun ? 'would update' : 'updated'}: ${counts(result.updated)}`,
    `unchanged: ${counts(result.unchanged)}`,
    `${result.dryRun ? 'would drop' : 'dropped'}: ${result.dropped} enrollment(s) left out by the sync`,
    ...(result.errors.length > 0 ? [`skipped ${result.errors.length} invalid row(s):`, ...result.errors.map((e) => `  ${e.path}: ${e.message}`)] : []),
  ];
  if ('changes' in output) lines.push('', 'changes (nothing applied):', ...(describeChanges(output.changes).length ? describeChanges(output.changes) : ['  (none)']));
  return lines.join('\n');
}

export function registerRosterCommands(program: Command): void {
  const roster = program.command('roster').description('class rosters: people, class groups, classes and enrollments');
  roster
    .command('import')
    .description(
      'import a roster: a JSON file in the API shape, or a folder of people.csv, class_groups.csv, classes.csv, enrollments.csv, ' +
        'or with --format a OneRoster 1.2 CSV package or Canvas SIS import CSVs (other files and columns are named and ignored). ' +
        'Invalid rows are skipped and listed; the valid ones are applied.',
    )
    .addHelpText(
      'after',
      `\nExit codes:\n  ${ROSTER_EXIT.ok}  every row accepted\n  1  nothing done: unreadable input, unknown company, or a sync refused (DROP_THRESHOLD_EXCEEDED)\n` +
        `  ${ROSTER_EXIT.someRefused}  some rows refused (listed), the others applied\n  ${ROSTER_EXIT.allRefused}  every row refused: nothing applied\n` +
        'A dry run exits with the code the import would have.',
    )
    .requiredOption('--company <slug>', 'company slug')
    .addOption(
      new Option('--format <format>', 'quorum (JSON file or folder of Quorum CSVs), oneroster (a OneRoster 1.2 CSV package), canvas (Canvas SIS import CSVs)')
        .choices(FORMATS)
        .default('quorum'),
    )
    .addOption(new Option('--mode <mode>', 'upsert, or sync (also drops the left-out enrollments of the listed classes)').choices(MODES).default('upsert'))
    .option('--dry-run', 'show what would change, apply nothing')
    .option('--max-drop-ratio <ratio>', 'sync: largest share of a class that may be dropped (default 0.2)')
    .argument('<path>', 'roster JSON file or CSV folder (the export folder with --format oneroster|canvas)')
    .action(runCommand(rosterImport, describeRosterImport, { exitCode: rosterExitCode }));
}
