import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase } from '../../test/harness.js';

const run = promisify(execFile);
const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const MAIN = join(process.cwd(), 'src', 'cli', 'main.ts');

let database: Awaited<ReturnType<typeof cloneDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), 'quorum-cli-'));

async function quorum(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(TSX, [MAIN, ...args], {
      env: { ...process.env, DATABASE_URL: database.url, QUORUM_DATA_DIR: dataDir, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  database = await cloneDatabase();
});
afterAll(async () => database?.drop());

describe('quorum CLI', () => {
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
    expect(human.stdout).toMatch(/^id\s+name\s+scopes/);

    const revoked = await quorum(['--json', 'key', 'revoke', '--company', 'cli-school', key.id]);
    expect(JSON.parse(revoked.stdout).revokedAt).toEqual(expect.any(String));
  });

  it('fails with a clear message and a non-zero exit on bad input', async () => {
    const unknownCompany = await quorum(['key', 'create', '--company', 'nope', '--name', 'x', '--scopes', 'surveys:read']);
    expect(unknownCompany.code).toBe(1);
    expect(unknownCompany.stderr).toContain('no company with slug "nope"');

    await quorum(['company', 'create', '--name', 'Scoped', '--slug', 'scoped']);
    const badScope = await quorum(['--json', 'key', 'create', '--company', 'scoped', '--name', 'x', '--scopes', 'surveys:write']);
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toContain('scopes[0]');
    expect(JSON.parse(badScope.stdout).error.details.fields[0]).toMatchObject({ path: 'scopes[0]', code: 'invalid_value' });

    const duplicate = await quorum(['company', 'create', '--name', 'Again', '--slug', 'scoped']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('slug');

    const missingOption = await quorum(['key', 'list']);
    expect(missingOption.code).toBe(1);
    expect(missingOption.stderr).toContain("required option '--company <slug>'");
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
