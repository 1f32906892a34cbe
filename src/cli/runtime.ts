import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { createContext, type Context } from '../context.js';
import { migrate } from '../db/migrate.js';
import { findCompanyBySlug } from '../features/companies/create-company.js';
import { CliError, printError, printResult, type OutputOptions } from './output.js';

/** What a one-shot command works with: config, a migrated database and the providers. */
export interface CliRuntime {
  config: Config;
  ctx: Context;
}

export async function openRuntime(options: { poolSize?: number } = {}): Promise<CliRuntime> {
  const config = loadConfig();
  const ctx = await createContext(config, { poolSize: options.poolSize ?? 4 });
  try {
    await migrate(ctx.pool);
  } catch (err) {
    await ctx.close();
    throw err;
  }
  return { config, ctx };
}

export async function companyIdForSlug(rt: CliRuntime, slug: string): Promise<string> {
  const company = await findCompanyBySlug(rt.ctx.db, slug);
  if (!company) throw new CliError(`no company with slug "${slug}"`);
  return company.id;
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

/**
 * Wraps a one-shot command: opens the runtime, runs, prints the result (JSON with --json),
 * closes everything, and turns any failure into one clear line and exit code 1.
 */
export function runCommand(work: (rt: CliRuntime, input: CommandInput) => Promise<unknown>, human: (result: any) => string) {
  return async (...actionArgs: unknown[]): Promise<void> => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const output = outputOptions(command);
    let rt: CliRuntime | null = null;
    try {
      rt = await openRuntime();
      const result = await work(rt, { args: command.processedArgs as string[], opts: command.opts() });
      printResult(result, output, human);
    } catch (err) {
      printError(err, output);
      process.exitCode = 1;
    } finally {
      await rt?.ctx.close().catch(() => undefined);
    }
  };
}
