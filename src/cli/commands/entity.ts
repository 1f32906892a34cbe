import { extname } from 'node:path';
import { Option, type Command } from 'commander';
import type { EntityFileFormat, EntityImportResult } from '../../features/entities/import-entities.js';
import { ENTITY_KINDS } from '../../features/entities/vocabulary.js';
import { readInputFile } from '../input.js';
import { CliError, table } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';

const FORMATS: readonly EntityFileFormat[] = ['json', 'csv'];

/** --format when given, else the file's extension. */
export function entityFileFormat(file: string, format?: EntityFileFormat): EntityFileFormat {
  if (format) return format;
  const byExtension = extname(file).slice(1).toLowerCase();
  const known = FORMATS.find((f) => f === byExtension);
  if (!known) throw new CliError(`cannot tell the format of ${file} from its extension: pass --format json or --format csv`);
  return known;
}

export async function entityImport(rt: CliRuntime, { args, opts }: CommandInput): Promise<EntityImportResult> {
  const file = args[0];
  const format = entityFileFormat(file, opts.format);
  const { importEntityFile } = await import('../../features/entities/import-entities.js');
  return importEntityFile(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), text: readInputFile(file), format });
}

export async function entityList(rt: CliRuntime, { opts }: CommandInput) {
  const { listEntities } = await import('../../features/entities/list-entities.js');
  return listEntities(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), kind: opts.kind });
}

export const describeEntityImport = (r: EntityImportResult) =>
  `created ${r.created}, updated ${r.updated}, unchanged ${r.unchanged}` + (r.relocated ? `; ${r.relocated} unit(s) outside the file moved with their parent` : '');

export function registerEntityCommands(program: Command): void {
  const entity = program.command('entity').description('registered entities: courses, teachers and the unit tree');
  entity
    .command('import')
    .description('create or update entities by kind and code (JSON or CSV: kind,code,name,parentCode)')
    .requiredOption('--company <slug>', 'company slug')
    .addOption(new Option('--format <format>', 'file format (default: from the extension)').choices(FORMATS))
    .argument('<file>', 'entity file')
    .action(runCommand(entityImport, describeEntityImport));
  entity
    .command('list')
    .description('list the entities of a company, units in tree order')
    .requiredOption('--company <slug>', 'company slug')
    .addOption(new Option('--kind <kind>', 'only this kind').choices(ENTITY_KINDS))
    .action(runCommand(entityList, (rows) => table(rows, ['kind', 'code', 'name', 'parentCode', 'id', 'orgPath'])));
}
