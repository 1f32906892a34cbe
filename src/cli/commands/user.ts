import { type Command, InvalidArgumentError } from 'commander';
import { PERMISSIONS, isPermission, type Permission } from '../../features/memberships/permissions.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';

function parsePermissions(value: string): Permission[] {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !isPermission(name));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown permission ${unknown.join(', ')}; one of ${PERMISSIONS.join(', ')}`);
  return names as Permission[];
}

const services = () => import('../../features/sessions/index.js');

interface ListedUser {
  email: string;
  name: string;
  passwordSet: boolean;
  companies: Array<{ company: string; owner: boolean; permissions: string[] }>;
}

/** The commands' work, callable in-process (tests) as well as from the binary. */
export const userCommands = {
  create: async (rt: CliRuntime, { opts }: CommandInput) => {
    if (opts.owner && opts.permissions) throw new InvalidArgumentError('give --permissions or --owner, not both');
    const companyId = await companyIdForSlug(rt, opts.company);
    const owner = Boolean(opts.owner);
    const permissions: Permission[] = owner ? [...PERMISSIONS] : (opts.permissions ?? []);
    const { user, created, setPasswordUrl } = await (await services()).createPanelUser(rt.ctx.db, rt.ctx, { companyId, email: opts.email, name: opts.name, permissions, owner, actor: null });
    return { id: user.id, email: user.email, name: user.name, company: opts.company as string, created, owner, permissions, setPasswordUrl };
  },
  list: async (rt: CliRuntime, { opts }: CommandInput) =>
    (await services()).listUsers(rt.ctx.db, rt.ctx, { companyId: opts.company ? await companyIdForSlug(rt, opts.company) : undefined }),
  remove: async (rt: CliRuntime, { opts }: CommandInput) =>
    (await services()).removeUser(rt.ctx.db, rt.ctx, { email: opts.email, companyId: opts.company ? await companyIdForSlug(rt, opts.company) : undefined }),
};

export const describeUser = {
  create: (r: Awaited<ReturnType<typeof userCommands.create>>) =>
    [
      `${r.created ? 'created user' : 'added existing user'} ${r.email} to ${r.company} (${r.owner ? 'owner' : r.permissions.join(', ') || 'no permissions'})`,
      r.setPasswordUrl ? `set-password link (works once, for 30 minutes; hand it to them): ${r.setPasswordUrl}` : 'they already have a password: they sign in as usual',
    ].join('\n'),
  list: (rows: ListedUser[]) =>
    table(
      rows.map((row) => ({
        email: row.email,
        name: row.name,
        password: row.passwordSet ? 'set' : 'not yet',
        companies: row.companies.map((c) => `${c.company}:${c.owner ? 'owner' : c.permissions.join('+') || '-'}`).join(' '),
      })),
      ['email', 'name', 'password', 'companies'],
    ),
  remove: (r: { email: string; removedFrom: string[]; accountRemoved: boolean }) =>
    r.accountRemoved ? `removed the account ${r.email} (from ${r.removedFrom.length} companies)` : `removed ${r.email} from the company`,
};

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
    .action(runCommand(userCommands.create, describeUser.create));
  user
    .command('list')
    .description('list panel users and their companies')
    .option('--company <slug>', 'only the members of this company')
    .action(runCommand(userCommands.list, describeUser.list));
  user
    .command('remove')
    .description('remove a person from a company, or (without --company) their account everywhere; the last owner of a company stays')
    .requiredOption('--email <address>', 'their e-mail address')
    .option('--company <slug>', 'remove only their membership of this company')
    .action(runCommand(userCommands.remove, describeUser.remove));
}
