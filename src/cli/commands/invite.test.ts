import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuorum } from '../../../test/cli.js';
import { cloneDatabase } from '../../../test/harness.js';

const FORM = join(process.cwd(), 'src', 'features', 'forms', 'examples', 'all-question-types.json');
const dir = mkdtempSync(join(tmpdir(), 'quorum-invite-cli-'));

let database: Awaited<ReturnType<typeof cloneDatabase>>;

const quorum = (args: string[]) => runQuorum(args, { DATABASE_URL: database.url, QUORUM_DATA_DIR: dir });

function csv(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

beforeAll(async () => {
  database = await cloneDatabase();
});
afterAll(async () => database?.drop());

describe('quorum invite import', { timeout: 180_000 }, () => {
  it('imports a CSV as one batch with a progress bar and a summary of created, duplicates and invalid rows by line', async () => {
    expect((await quorum(['company', 'create', '--name', 'Import School', '--slug', 'import-school'])).code).toBe(0);
    expect((await quorum(['form', 'import', '--company', 'import-school', FORM])).code).toBe(0);
    const file = csv('contacts.csv', 'name,email\nAna,ana@school.edu\nBo,BO@school.edu\nAna again,Ana@School.edu\nBad,nope\n');

    const human = await quorum(['invite', 'import', '--company', 'import-school', '--form', 'course-experience', file]);
    expect(human.code).toBe(0);
    expect(human.stderr).toMatch(/\[#+\] 100% 4 rows/);
    expect(human.stdout).toMatch(/^batch [0-9a-f-]{36}: 4 rows, 2 created, 1 duplicates, 1 invalid$/m);
    expect(human.stdout).toContain('line 4: duplicate, ana@school.edu already has an invite on this form');
    expect(human.stdout).toContain('line 5: email: This is not an e-mail address.');

    const again = await quorum(['--json', 'invite', 'import', '--company', 'import-school', '--form', 'course-experience', file]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({ batchId: expect.any(String), rows: 4, created: 0, duplicates: 3, invalid: 1 });
    expect(summary.duplicateRows.map((r: { line: number }) => r.line)).toEqual([2, 3, 4]);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ email: string; batch_id: string }>(`SELECT email, batch_id FROM invites ORDER BY email`);
      const firstBatch = /^batch ([0-9a-f-]{36})/m.exec(human.stdout)![1];
      expect(rows).toEqual([
        { email: 'ana@school.edu', batch_id: firstBatch },
        { email: 'bo@school.edu', batch_id: firstBatch },
      ]);
    } finally {
      await client.end();
    }
  });

  it('fails with a clear code for an unknown form, a missing file and unknown columns', async () => {
    await quorum(['company', 'create', '--name', 'Other School', '--slug', 'other-school']);
    const file = csv('ok.csv', 'email\na@school.edu\n');
    const noForm = await quorum(['--json', 'invite', 'import', '--company', 'other-school', '--form', 'course-experience', file]);
    expect(noForm.code).toBe(1);
    expect(JSON.parse(noForm.stdout).error.code).toBe('NOT_FOUND');

    await quorum(['form', 'import', '--company', 'other-school', FORM]);
    const missing = await quorum(['--json', 'invite', 'import', '--company', 'other-school', '--form', 'course-experience', join(dir, 'absent.csv')]);
    expect(JSON.parse(missing.stdout).error.code).toBe('INVALID_INPUT');
    const columns = await quorum(['--json', 'invite', 'import', '--company', 'other-school', '--form', 'course-experience', csv('bad.csv', 'email,colour\na@b.edu,red\n')]);
    expect(columns.code).toBe(1);
    expect(JSON.parse(columns.stdout).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'header.1', code: 'unknown_field' }] } });
  });
});
