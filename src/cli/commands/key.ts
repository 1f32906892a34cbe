import { type Command, InvalidArgumentError } from 'commander';
import { createKey } from '../../features/keys/create-key.js';
import { listKeys } from '../../features/keys/list-keys.js';
import { revokeKey } from '../../features/keys/revoke-key.js';
import { SCOPES } from '../../features/keys/scopes.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand } from '../runtime.js';

function parseScopes(value: string): string[] {
  return value === 'all' ? [...SCOPES] : value.split(',').map((s) => s.trim()).filter(Boolean);
}

function parseInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function parseTime(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError('must be an ISO 8601 time');
  return date;
}

export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('manage API keys');
  key
    .command('create')
    .description('create an API key; the token is printed once and cannot be recovered')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--name <name>', 'label of the key')
    .requiredOption('--scopes <a,b>', `comma-separated scopes, or "all": ${SCOPES.join(', ')}`, parseScopes)
    .option('--rate-limit <n>', 'requests per minute (default 60)', parseInteger)
    .option('--expires-at <time>', 'ISO 8601 expiry time', parseTime)
    .action(
      runCommand(
        async (rt, { opts }) => {
          const companyId = await companyIdForSlug(rt, opts.company);
          return createKey(rt.ctx.db, rt.ctx, {
            companyId,
            name: opts.name,
            scopes: opts.scopes,
            rateLimitPerMin: opts.rateLimit,
            expiresAt: opts.expiresAt ?? null,
          });
        },
        (r) => `created key ${r.key.id} (${r.key.scopes.join(', ') || 'no scopes'})\ntoken (shown once, store it now): ${r.token}`,
      ),
    );
  key
    .command('list')
    .description('list the keys of a company (never their secrets)')
    .requiredOption('--company <slug>', 'company slug')
    .action(
      runCommand(
        async (rt, { opts }) => listKeys(rt.ctx.db, await companyIdForSlug(rt, opts.company)),
        (rows) => table(rows, ['id', 'name', 'scopes', 'rateLimitPerMin', 'expiresAt', 'revokedAt', 'lastUsedAt']),
      ),
    );
  key
    .command('revoke')
    .description('revoke a key; requests with it answer 401 within seconds')
    .requiredOption('--company <slug>', 'company slug')
    .argument('<keyId>', 'id of the key (from key list)')
    .action(
      runCommand(
        async (rt, { args, opts }) => revokeKey(rt.ctx.db, rt.ctx, await companyIdForSlug(rt, opts.company), args[0]),
        (k) => `revoked key ${k.id} at ${k.revokedAt}`,
      ),
    );
}
