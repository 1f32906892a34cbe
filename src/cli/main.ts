#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { registerCompanyCommands } from './commands/company.js';
import { registerDatabaseCommands } from './commands/database.js';
import { registerEntityCommands } from './commands/entity.js';
import { registerFormCommands } from './commands/form.js';
import { registerKeyCommands } from './commands/key.js';
import { registerServeCommands } from './commands/serve.js';
import { registerStatsCommands } from './commands/stats.js';
import { registerRatesCommands } from './commands/rates.js';
import { registerResponseCommands } from './commands/response.js';
import { registerWebhookCommands } from './commands/webhook.js';
import { registerRosterCommands } from './commands/roster.js';
import { registerEnrollmentCommands } from './commands/enrollment.js';
import { registerSuppressionCommands } from './commands/suppression.js';
import { registerMailCommands } from './commands/mail.js';
import { registerChannelCommands } from './commands/channel.js';
import { registerInviteCommands } from './commands/invite.js';
import { registerTreatmentCommands } from './commands/treatment.js';
import { registerHolidayCommands } from './commands/holiday.js';
import { registerUserCommands } from './commands/user.js';
import { registerReminderCommands } from './commands/reminders.js';
import { printError } from './output.js';

/** Each feature registers its commands; add new rooms here. */
const commandGroups = [
  registerServeCommands,
  registerDatabaseCommands,
  registerCompanyCommands,
  registerKeyCommands,
  registerFormCommands,
  registerEntityCommands,
  registerWebhookCommands,
  registerRosterCommands,
  registerEnrollmentCommands,
  registerInviteCommands,
  registerSuppressionCommands,
  registerMailCommands,
  registerChannelCommands,
  registerStatsCommands,
  registerRatesCommands,
  registerResponseCommands,
  registerTreatmentCommands,
  registerHolidayCommands,
  registerUserCommands,
  registerReminderCommands,
];

// Commander reports argument errors before any action runs, so --json is read from argv itself.
const json = process.argv.slice(2, (process.argv.indexOf('--') + 1 || process.argv.length + 1) - 1).includes('--json');

// Set before the commands are added: subcommands copy these settings when created.
const program = new Command()
  .name('quorum')
  .description('Quorum operator CLI: run the service and manage companies, keys, forms and webhooks')
  .option('--json', 'print results, and errors, as JSON for scripts')
  .exitOverride()
  .configureOutput({ outputError: (text, write) => !json && write(text) });
if (!json) program.showHelpAfterError();

for (const register of commandGroups) register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  // Help and version "errors" exit 0 after printing.
  if (err instanceof CommanderError && err.exitCode === 0) process.exit(0);
  // Commander already printed its own message in human mode.
  if (json || !(err instanceof CommanderError)) printError(err, { json });
  process.exit(err instanceof CommanderError ? err.exitCode : 1);
});
