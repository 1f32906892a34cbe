import type { Command } from 'commander';
import { runCommand } from '../runtime.js';

export function registerDatabaseCommands(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (also done automatically at start)')
    .action(
      runCommand(
        async (rt) => (await import('../../db/migrate.js')).migrate(rt.ctx.pool),
        (r) => (r.applied.length ? `applied ${r.applied.join(', ')}` : 'database is up to date'),
        { createsDatabase: true, autoMigrate: false },
      ),
    );
  program
    .command('demo')
    .description('create the demo company, an all-scopes key and demo data (once)')
    .action(
      runCommand(
        async (rt) => (await import('../../features/demo/seed-demo.js')).ensureDemo(rt.ctx),
        async (r) => {
          const { demoBanner } = await import('../../features/demo/seed-demo.js');
          const origin = new URL(process.env.PUBLIC_API_URL || 'http://localhost:3000/v1').origin;
          return demoBanner(r, { api: process.env.PUBLIC_API_URL || `${origin}/v1`, docs: `${origin}/docs` });
        },
        { createsDatabase: true },
      ),
    );
}
