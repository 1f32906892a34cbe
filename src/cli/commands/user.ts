import { type Command, InvalidArgumentError } from 'commander';
import { PERMISSIONS, isPermission, type Permission } from '../../features/members/permissions.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand } from '../runtime.js';

function parsePermissions(value: string): Permission[] {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !isPermission(name));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown permission ${unknown.join(', ')}; one of ${PERMISSIONS.join(', ')}`);
  return names as Permission[];
}

/** Panel users: the operator makes the first owner of a company here; owners manage the rest in the panel. */
export function registerUserCommands(program: Command): void {
  const user = program.command('user').description('manage panel users (people who sign in to the management panel)');
  user
    .command('create')
    .description('add a person to a company; prints a one-time set-password link (30 minutes), never a password')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--email <address>', 'their e-mail address (one account across companies)')
    .option('--name <name>', 'their name (default: the part of the address before @)')
    .option('--permissions <a,b>', `comma-separated permissions: ${PERMISSIONS.join(', ')}`, parsePermissions)
    .option('--owner', 'an owner: every permission, and manages members')
    .action(
      runCommand(
        async (rt, { opts }) => {
          if (opts.owner && opts.permissions) throw new InvalidArgumentError('give --permissions or --owner, not both');
          const { createPanelUser } = await import('../../features/sessions/index.js');
          const companyId = await companyIdForSlug(rt, opts.company);
          const { user: row, created, setPasswordUrl } = await createPanelUser(rt.ctx.db, rt.ctx, {
            companyId,
            email: opts.email,
            name: opts.name,
            permissions: opts.permissions ?? [],
            owner: Boolean(opts.owner),
            actor: null,
          });
          return { id: row.id, email: row.email, name: row.name, company: opts.company, created, owner: Boolean(opts.owner), permissions: opts.owner ? [...PERMISSIONS] : (opts.permissions ?? []), setPasswordUrl };
        },
        (r) =>
          [
            `${r.created ? 'created user' : 'added existing user'} ${r.email} to ${r.company} (${r.owner ? 'owner' : r.permissions.join(', ') || 'no permissions'})`,
            r.setPasswordUrl ? `set-password link (works once, for 30 minutes; hand it to them): ${r.setPasswordUrl}` : 'they already have a password: they sign in as usual',
          ].join('\n'),
      ),
    );
  user
    .command('list')
    .description('list panel users and their companies')
    .option('--company <slug>', 'only the members of this company')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const { listUsers } = await import('../../features/sessions/index.js');
          return listUsers(rt.ctx.db, rt.ctx, { companyId: opts.company ? await companyIdForSlug(rt, opts.company) : undefined });
        },
        (rows) =>
          table(
            rows.map((row: { email: string; name: string; passwordSet: boolean; companies: Array<{ company: string; owner: boolean; permissions: string[] }> }) => ({
              email: row.email,
              name: row.name,
              password: row.passwordSet ? 'set' : 'not yet',
              companies: row.companies.map((c) => `${c.company}:${c.owner ? 'owner' : c.permissions.join('+') || '-'}`).join(' '),
            })),
            ['email', 'name', 'password', 'companies'],
          ),
      ),
    );
  user
    .command('remove')
    .description('remove a person from a company, or (without --company) their account everywhere; the last owner of a company stays')
    .requiredOption('--email <address>', 'their e-mail address')
    .option('--company <slug>', 'remove only their membership of this company')
    .action(
      runCommand(
        async (rt, { opts }) => {
          const { removeUser } = await import('../../features/sessions/index.js');
          return removeUser(rt.ctx.db, rt.ctx, { email: opts.email, companyId: opts.company ? await companyIdForSlug(rt, opts.company) : undefined });
        },
        (r) => (r.accountRemoved ? `removed the account ${r.email} (from ${r.removedFrom.length} companies)` : `removed ${r.email} from the company`),
      ),
    );
}
