#!/usr/bin/env node
import { Command } from 'commander';
import { registerCompanyCommands } from './commands/company.js';
import { registerDatabaseCommands } from './commands/database.js';
import { registerEntityCommands } from './commands/entity.js';
import { registerFormCommands } from './commands/form.js';
import { registerKeyCommands } from './commands/key.js';
import { registerServeCommands } from './commands/serve.js';
import { registerStatsCommands } from './commands/stats.js';
import { registerWebhookCommands } from './commands/webhook.js';

/** Each feature registers its commands; add new rooms here. */
const commandGroups = [registerServeCommands, registerDatabaseCommands, registerCompanyCommands, registerKeyCommands, registerFormCommands, registerEntityCommands, registerWebhookCommands, registerStatsCommands];

const program = new Command()
  .name('quorum')
  .description('Quorum operator CLI: run the service and manage companies, keys, forms and webhooks')
  .option('--json', 'print results as JSON for scripts')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

for (const register of commandGroups) register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
