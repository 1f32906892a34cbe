import type { Command } from 'commander';
import type { Config } from '../platform/config.js';
import type { Context } from '../platform/context.js';
import type pg from 'pg';
import type { FormRecord } from '../features/forms/find-form.js';
import { CliError, printError, printResult, type OutputOptions } from './output.js';

// Start-up cost: the context, the database code and every service load inside the action that needs them
// (dynamic import), never when main.ts registers the commands; `--help` and a typo stay instant.

/** What a one-shot command works with: config, a migrated database and the providers. */
export interface CliRuntime {
  config: Config;
  ctx: Context;
}

export interface RuntimeOptions {
  poolSize?: number;
  /** Only commands that set a service up (migrate, demo) may create the cluster or an empty schema. */
  createsDatabase?: boolean;
  /** false for the migrate command itself, which reports what it applied. Default true. */
  autoMigrate?: boolean;
}

export async function openRuntime(options: RuntimeOptions = {}): Promise<CliRuntime> {
  const { loadConfig } = await import('../platform/config.js');
  const config = loadConfig();
  const create = options.createsDatabase ?? false;
  const [{ createContext }, { describeDatabase, NoDatabaseError }] = await Promise.all([import('../platform/context.js'), import('../platform/db/connect.js')]);
  const ctx = await createContext(config, { poolSize: options.poolSize ?? 4, connect: { create } }).catch((err: unknown) => {
    throw err instanceof NoDatabaseError ? noDatabase(describeDatabase(config), err.message) : err;
  });
  try {
    if (options.autoMigrate !== false) await migrateIfBehind(ctx.pool, config, create);
  } catch (err) {
    await ctx.close();
    throw err;
  }
  return { config, ctx };
}

/**
 * Migrating takes seconds (graphile-worker checks its whole schema): the CLI reads the state in one query
 * and migrates only when behind. A database without any Quorum table is the wrong one unless we may create.
 */
async function migrateIfBehind(pool: pg.Pool, config: Config, create: boolean): Promise<void> {
  const [{ migrate, pendingMigrations }, { describeDatabase }] = await Promise.all([import('../platform/db/migrate.js'), import('../platform/db/connect.js')]);
  const { pending, empty } = await pendingMigrations(pool);
  if (pending.length === 0) return;
  if (empty && !create) throw noDatabase(describeDatabase(config), 'it has no Quorum tables');
  await migrate(pool);
}

function noDatabase(looked: string, why: string): CliError {
  return new CliError(
    `no Quorum database at ${looked} (${why}). Point QUORUM_DATA_DIR at the data directory the service ` +
      'uses, or DATABASE_URL at its PostgreSQL; "quorum start", "quorum migrate" or "quorum demo" create a new one.',
    'NO_DATABASE',
    { looked },
  );
}

export async function companyIdForSlug(rt: CliRuntime, slug: string): Promise<string> {
  const { findCompanyBySlug } = await import('../features/companies/create-company.js');
  const company = await findCompanyBySlug(rt.ctx.db, rt.ctx, { slug });
  if (!company) throw new CliError(`no company with slug "${slug}" (see: quorum company list)`, 'NOT_FOUND');
  return company.id;
}

/** A company's form by id or slug; an unknown one is NOT_FOUND, as an unknown company is. */
export async function formOfCompany(rt: CliRuntime, input: { companyId: string; companySlug: string; idOrSlug: string }): Promise<FormRecord> {
  const { findFormByIdOrSlug } = await import('../features/forms/find-form.js');
  const form = await findFormByIdOrSlug(rt.ctx.db, rt.ctx, { companyId: input.companyId, idOrSlug: input.idOrSlug });
  if (!form) throw new CliError(`no form "${input.idOrSlug}" in company ${input.companySlug} (see: quorum form list --company ${input.companySlug})`, 'NOT_FOUND');
  return form;
}

/** The --json flag of the root program, wherever the command sits. */
function outputOptions(command: Command): OutputOptions {
  return { json: Boolean(command.optsWithGlobals().json) };
}

export interface CommandInput {
  /** Positional arguments in declaration order. */
  args: string[];
  /** The command's own options (commander camel-cases them). */
  opts: Record<string, any>;
}

export interface RunOptions extends RuntimeOptions {
  /** The exit code of a result that was printed: a command whose success can be partial says so (default 0). */
  exitCode?: (result: any) => number;
}

/**
 * Wraps a one-shot command: opens the runtime, runs, prints the result (JSON with --json),
 * closes everything, and turns any failure into one clear line and exit code 1.
 */
export function runCommand(
  work: (rt: CliRuntime, input: CommandInput) => Promise<unknown>,
  human: (result: any) => string | Promise<string>,
  options: RunOptions = {},
) {
  return async (...actionArgs: unknown[]): Promise<void> => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const output = outputOptions(command);
    let rt: CliRuntime | null = null;
    try {
      rt = await openRuntime(options);
      const result = await work(rt, { args: command.processedArgs as string[], opts: command.opts() });
      // A formatter may load its helper lazily too (the demo banner).
      const text = output.json ? '' : await human(result);
      printResult(result, output, () => text);
      if (options.exitCode) process.exitCode = options.exitCode(result);
    } catch (err) {
      printError(err, output);
      process.exitCode = 1;
    } finally {
      await rt?.ctx.close().catch(() => undefined);
    }
  };
}
