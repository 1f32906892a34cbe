import type { Command } from 'commander';
import { runCommand } from '../runtime.js';

export function registerDatabaseCommands(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (also done automatically at start)')
    .action(
      runCommand(
        async (rt) => (await import('../../platform/db/migrate.js')).migrate(rt.ctx.pool),
        (r) => (r.applied.length ? `applied ${r.applied.join(', ')}` : 'database is up to date'),
        { createsDatabase: true, autoMigrate: false },
      ),
    );
  // --json prints the demo and its links; people get the same banner as `npm start`.
  let banner = '';
  program
    .command('demo')
    .description('create the demo company, an all-scopes key and demo data (once), and print links to try it')
    .action(
      runCommand(
        async (rt) => {
          const announced = await (await import('../../demo/announce-demo.js')).announceDemo(rt.ctx, {
            onProgress: (line) => process.stderr.write(`${line}\n`),
          });
          banner = announced.banner;
          return { ...announced.demo, links: announced.links };
        },
        () => banner,
        { createsDatabase: true },
      ),
    );
}
