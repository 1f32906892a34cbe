import { type Command, InvalidArgumentError } from 'commander';
import { SCOPES } from '../../features/keys/scopes.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime } from '../runtime.js';
import { instantArgument } from '../input.js';

function parseScopes(value: string): string[] {
  const scopes = value === 'all' ? [...SCOPES] : value.split(',').map((s) => s.trim()).filter(Boolean);
  // A key without scopes can do nothing: surely a mistake (an empty variable in a script).
  if (scopes.length === 0) throw new InvalidArgumentError(`give at least one scope, or "all": ${SCOPES.join(', ')}`);
  return scopes;
}

const TOKEN_ID_RE = /^[0-9A-Za-z]{12}$/;

/** The key's id from what an operator has in hand: the id, the id inside the token, or the whole (leaked) token. */
export async function keyIdFromReference(rt: CliRuntime, companyId: string, reference: string): Promise<string> {
  const [{ and, eq }, { apiKeys }, { parseToken }, { isUuid }, { notFound }] = await Promise.all([
    import('drizzle-orm'),
    import('../../features/keys/table.js'),
    import('../../features/keys/token.js'),
    import('../../lib/ids.js'),
    import('../../lib/errors.js'),
  ]);
  if (isUuid(reference)) return reference;
  const tokenId = parseToken(reference)?.keyId ?? (TOKEN_ID_RE.test(reference) ? reference : null);
  if (!tokenId) throw notFound('API key');
  const [row] = await rt.ctx.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.companyId, companyId), eq(apiKeys.keyId, tokenId)));
  if (!row) throw notFound('API key');
  return row.id;
}

function parseInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
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
    .option('--expires-at <time>', 'expiry time, RFC 3339 with a zone', instantArgument)
    .action(
      runCommand(
        async (rt, { opts }) => {
          const { createKey } = await import('../../features/keys/create-key.js');
          const companyId = await companyIdForSlug(rt, opts.company);
          return createKey(rt.ctx.db, rt.ctx, {
            companyId,
            name: opts.name,
            scopes: opts.scopes,
            rateLimitPerMin: opts.rateLimit,
            expiresAt: opts.expiresAt ?? null,
          });
        },
        (r) => `created key ${r.key.id} (${r.key.scopes.join(', ')})\ntoken (shown once, store it now): ${r.token}`,
      ),
    );
  key
    .command('list')
    .description('list the keys of a company (never their secrets)')
    .requiredOption('--company <slug>', 'company slug')
    .action(
      runCommand(
        async (rt, { opts }) => (await import('../../features/keys/list-keys.js')).listKeys(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company) }),
        (rows) => table(rows, ['id', 'tokenId', 'name', 'scopes', 'rateLimitPerMin', 'expiresAt', 'revokedAt', 'lastUsedAt']),
      ),
    );
  key
    .command('revoke')
    .description('revoke a key; requests with it answer 401 within seconds')
    .requiredOption('--company <slug>', 'company slug')
    .argument('<key>', 'the key: its id or token id (from key list), or the whole token')
    .action(
      runCommand(
        async (rt, { args, opts }) => {
          const { revokeKey } = await import('../../features/keys/revoke-key.js');
          const companyId = await companyIdForSlug(rt, opts.company);
          return revokeKey(rt.ctx.db, rt.ctx, { companyId, id: await keyIdFromReference(rt, companyId, args[0]) });
        },
        (k) => `revoked key ${k.id} at ${k.revokedAt}`,
      ),
    );
}
