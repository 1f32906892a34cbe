import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runQuorum } from '../../test/cli.js';
import { cloneDatabase } from '../../test/harness.js';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'quorum-cli-'));

const quorum = (args: string[], env: Record<string, string> = {}) => runQuorum(args, { DATABASE_URL: database.url, QUORUM_DATA_DIR: dataDir, ...env });

beforeAll(async () => {
  database = await cloneDatabase();
});
afterAll(async () => database?.drop());

// Each test spawns several CLI processes; on a loaded machine one takes seconds.
describe('quorum CLI', { timeout: 180_000 }, () => {
  it('creates a company and a key, lists keys without secrets, and revokes', async () => {
    const company = await quorum(['--json', 'company', 'create', '--name', 'CLI School', '--slug', 'cli-school']);
    expect(company.code).toBe(0);
    expect(JSON.parse(company.stdout)).toMatchObject({ slug: 'cli-school', name: 'CLI School' });

    const created = await quorum(['--json', 'key', 'create', '--company', 'cli-school', '--name', 'ci', '--scopes', 'surveys:read,events:read', '--rate-limit', '120']);
    expect(created.code).toBe(0);
    const { key, token } = JSON.parse(created.stdout);
    expect(token).toMatch(/^qk_[0-9A-Za-z]{12}_[0-9A-Za-z]{43}$/);
    expect(key).toMatchObject({ name: 'ci', scopes: ['surveys:read', 'events:read'], rateLimitPerMin: 120, revokedAt: null });

    const listed = await quorum(['--json', 'key', 'list', '--company', 'cli-school']);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: key.id })]);
    expect(listed.stdout).not.toContain(token.split('_')[2]);

    const human = await quorum(['key', 'list', '--company', 'cli-school']);
    expect(human.stdout).toMatch(/^id\s+tokenId\s+name\s+scopes/);

    const revoked = await quorum(['--json', 'key', 'revoke', '--company', 'cli-school', key.id]);
    expect(JSON.parse(revoked.stdout).revokedAt).toEqual(expect.any(String));
  });

  it('revokes by the id inside the token or by the whole token, and lists that id', async () => {
    await quorum(['company', 'create', '--name', 'Leaky', '--slug', 'leaky']);
    const mint = async () => JSON.parse((await quorum(['--json', 'key', 'create', '--company', 'leaky', '--name', 'k', '--scopes', 'all'])).stdout) as { key: { id: string }; token: string };
    const [a, b] = [await mint(), await mint()];
    const tokenIdOf = (token: string) => token.split('_')[1];

    const listed = JSON.parse((await quorum(['--json', 'key', 'list', '--company', 'leaky'])).stdout) as { id: string; tokenId: string }[];
    expect(listed.find((k) => k.id === a.key.id)?.tokenId).toBe(tokenIdOf(a.token));
    expect((await quorum(['key', 'list', '--company', 'leaky'])).stdout).toContain(tokenIdOf(b.token));

    expect(JSON.parse((await quorum(['--json', 'key', 'revoke', '--company', 'leaky', a.token])).stdout)).toMatchObject({ id: a.key.id, revokedAt: expect.any(String) });
    expect(JSON.parse((await quorum(['--json', 'key', 'revoke', '--company', 'leaky', tokenIdOf(b.token)])).stdout)).toMatchObject({ id: b.key.id });
    // Another company's key is not found, even by its token.
    await quorum(['company', 'create', '--name', 'Other', '--slug', 'other-co']);
    const foreign = await quorum(['--json', 'key', 'revoke', '--company', 'other-co', a.token]);
    expect(foreign.code).toBe(1);
    expect(JSON.parse(foreign.stdout).error.code).toBe('NOT_FOUND');
  });

  it('prints every failure as JSON with a stable code under --json, argument errors included', async () => {
    const missing = await quorum(['--json', 'key', 'list']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({ error: { code: 'USAGE_ERROR', message: expect.stringContaining('--company'), details: { reason: 'commander.missingMandatoryOptionValue' } } });
    const unknownCommand = await quorum(['--json', 'nonsense']);
    expect(JSON.parse(unknownCommand.stdout).error.code).toBe('USAGE_ERROR');
    const noCompany = await quorum(['--json', 'key', 'list', '--company', 'nope']);
    expect(JSON.parse(noCompany.stdout).error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"nope"') });
    const badConfig = await quorum(['--json', 'company', 'list'], { PORT: 'abc' });
    expect(JSON.parse(badConfig.stdout).error.code).toBe('CONFIG_ERROR');
  });

  it('lists companies, and refuses an empty scope list and unknown event types', async () => {
    await quorum(['company', 'create', '--name', 'Listed', '--slug', 'listed']);
    const companies = JSON.parse((await quorum(['--json', 'company', 'list'])).stdout) as { slug: string }[];
    expect(companies.map((c) => c.slug)).toContain('listed');
    expect((await quorum(['company', 'list'])).stdout).toMatch(/^slug\s+name\s+id/);

    const noScopes = await quorum(['key', 'create', '--company', 'listed', '--name', 'x', '--scopes', '']);
    expect(noScopes.code).toBe(1);
    expect(noScopes.stderr).toContain('at least one scope');

    const bogus = await quorum(['webhook', 'create', '--company', 'listed', '--url', 'https://example.com/hook', '--types', 'bogus']);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('unknown event type "bogus"; valid: *, response.created');
  });

  it('refuses to create a database for ordinary commands and says where it looked', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'quorum-cli-nodb-'));
    const embedded = await quorum(['--json', 'company', 'list'], { DATABASE_URL: '', QUORUM_DATA_DIR: fresh });
    expect(embedded.code).toBe(1);
    const { error } = JSON.parse(embedded.stdout);
    expect(error.code).toBe('NO_DATABASE');
    expect(error.message).toContain(`QUORUM_DATA_DIR=${fresh}`);
    expect(error.message).toContain('DATABASE_URL');
    expect(embedded.stderr).toBe(''); // --json: the error object only
    expect(existsSync(join(fresh, 'pg'))).toBe(false);

    // A server without Quorum's tables (the admin database) is not silently migrated either.
    const empty = await quorum(['company', 'list'], { DATABASE_URL: inject('pgAdminUrl') });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('has no Quorum tables');
  });

  it('fails with a clear message and a non-zero exit on bad input', async () => {
    const unknownCompany = await quorum(['key', 'create', '--company', 'nope', '--name', 'x', '--scopes', 'surveys:read']);
    expect(unknownCompany.code).toBe(1);
    expect(unknownCompany.stderr).toContain('no company with slug "nope"');

    await quorum(['company', 'create', '--name', 'Scoped', '--slug', 'scoped']);
    const badScope = await quorum(['--json', 'key', 'create', '--company', 'scoped', '--name', 'x', '--scopes', 'surveys:write']);
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toBe('');
    expect(JSON.parse(badScope.stdout).error.message).toContain('scopes[0]');
    expect(JSON.parse(badScope.stdout).error.details.fields[0]).toMatchObject({ path: 'scopes[0]', code: 'invalid_value' });

    const duplicate = await quorum(['company', 'create', '--name', 'Again', '--slug', 'scoped']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('slug');

    const missingOption = await quorum(['key', 'list']);
    expect(missingOption.code).toBe(1);
    expect(missingOption.stderr).toContain("required option '--company <slug>'");
    expect(missingOption.stdout).toBe('');
  });

  it('stops on a bad configuration value with one line naming the variable', async () => {
    const res = await quorum(['migrate'], { PORT: 'abc' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('error: PORT must be a port number (0-65535), got "abc"');
  });

  it('migrate reports an up-to-date database', async () => {
    const res = await quorum(['migrate']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('database is up to date');
  });
});
